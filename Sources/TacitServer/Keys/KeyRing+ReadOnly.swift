import TacitStore

extension KeyRing {
    /// The ring `configuration` names, checked against `store`'s fingerprints, for a command
    /// that must change nothing (`tacit fraud backtest`, docs/fraud.md#backtest): unlike
    /// `load`, it creates no key file, records no fingerprint and moves no secret out of the
    /// store; a store sealed under a key it lacks is refused, as a production start is.
    public static func loadReadOnly(configuration: ServerConfiguration,
                                    store: any VerificationStore) async throws -> KeyRing {
        let path = configuration.keyFilePath
        let legacy = try await store.setting(legacySetting).flatMap { $0.count == 32 ? MasterKey($0) : nil }
        let fingerprints = try await store.settings(prefix: fingerprintPrefix)
        let configured = try configured(configuration, path: path)
        guard let first = configured ?? legacy.map({ KeyRing([$0], source: .ephemeral) }) else {
            if let path { throw KeySetupError.missingFile(path) }
            throw KeySetupError(code: "key_missing", description: "no key file or TACIT_SECRET gives the keys the"
                                    + " database was sealed with")
        }
        var ring = first
        if let legacy, !ring.keys.contains(legacy) { ring = KeyRing(ring.keys + [legacy], source: ring.source) }
        try ring.check(fingerprints, dev: false, warn: { _ in })
        return ring
    }
}
