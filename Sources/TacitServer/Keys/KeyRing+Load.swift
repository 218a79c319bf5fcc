import Foundation
import TacitStore

extension KeyRing {
    /// The ring for `configuration`, checked against the fingerprints in `store`.
    ///
    /// A master secret the store still holds (from before keys left the database) moves to
    /// the key file and its row is deleted. A key file that is missing is created, unless
    /// the store was sealed before: then production refuses (`KeySetupError`), where
    /// `--dev` warns and starts with a new key, since a dev database is disposable.
    public static func load(configuration: ServerConfiguration, store: any VerificationStore,
                            warn: (String) -> Void = { FileHandle.standardError.write(Data("tacit: \($0)\n".utf8)) })
        async throws -> KeyRing {
        let path = configuration.keyFilePath
        let legacy = try await store.setting(legacySetting).flatMap { $0.count == 32 ? MasterKey($0) : nil }
        let fingerprints = try await store.settings(prefix: fingerprintPrefix)
        var ring = try configured(configuration, path: path)
            ?? firstStart(path, legacy: legacy, sealed: !fingerprints.isEmpty, dev: configuration.dev)
        if let legacy { ring = try ring.adopting(legacy, keptIn: path) }
        try ring.check(fingerprints, dev: configuration.dev, warn: warn)
        // The file holds the old secret before its row goes, so a crash in between loses nothing.
        for key in [ring.newest] + (legacy.map { [$0] } ?? []) { try await record(key, in: store) }
        if path != nil, legacy != nil { try await store.deleteSetting(legacySetting) }
        return ring
    }

    /// The ring when the settings give none: a new key file (holding the store's old master
    /// secret, when it has one), or, with no file to keep it in, a key for the process alone.
    static func firstStart(_ path: String?, legacy: MasterKey?, sealed: Bool, dev: Bool) throws -> KeyRing {
        guard let path else { return KeyRing([legacy ?? .generate()], source: .ephemeral) }
        // Production never makes a new key for a database sealed before: new data would be
        // sealed under a key kept apart from the one the old data needs.
        if legacy == nil, sealed, !dev { throw KeySetupError.missingFile(path) }
        _ = try KeyFile.create(path, keys: [legacy ?? .generate()])
        return KeyRing(try KeyFile.read(path) ?? [], source: .keyFile(path))
    }

    /// This ring with the store's old master secret as its oldest key, kept in the key file
    /// too (unless there is no file to keep it in).
    func adopting(_ legacy: MasterKey, keptIn path: String?) throws -> KeyRing {
        guard !keys.contains(legacy) else { return self }
        if let path { try Self.keep(legacy, in: path) }
        return KeyRing(keys + [legacy], source: source)
    }

    /// The ring the settings give, before the store is consulted: the secrets (and the key
    /// file's keys, when it exists), or the key file's keys; nil when the key file is missing.
    static func configured(_ configuration: ServerConfiguration, path: String?) throws -> KeyRing? {
        let fileKeys = try path.flatMap { try KeyFile.read($0) }
        if let secret = configuration.secret, !secret.isEmpty {
            let secrets = ([secret] + configuration.oldSecrets).map(MasterKey.init(secret:))
            return KeyRing(secrets + (fileKeys ?? []), source: .secret(keyFile: fileKeys == nil ? nil : path))
        }
        guard let path else { return nil }
        return fileKeys.map { KeyRing($0, source: .keyFile(path)) }
    }

    /// Adds a key moved out of the database to the key file, as its oldest.
    static func keep(_ key: MasterKey, in path: String) throws {
        try KeyFile.update(path) { existing in existing.contains(key) ? nil : existing + [key] }
    }

    /// Every fingerprint in the store must be a key of this ring.
    func check(_ fingerprints: [String: [UInt8]], dev: Bool, warn: (String) -> Void) throws {
        guard fingerprints.contains(where: { !holds(fingerprint: $0.value, named: $0.key) }) else { return }
        let error = KeySetupError.missing(source)
        guard dev else { throw error }
        warn("\(error) (dev mode starts anyway; what that key sealed can't be opened)")
    }
}
