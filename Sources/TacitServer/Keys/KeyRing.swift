import TacitStore

/// The master keys the server holds, newest first: the newest seals and hashes new
/// data, the older ones still open what they sealed. Loaded from `TACIT_SECRET` (with
/// `TACIT_OLD_SECRETS`) or the key file, never from the database.
public struct KeyRing: Sendable, Equatable {
    /// Never empty.
    public let keys: [MasterKey]
    public let source: KeySource

    public init(_ keys: [MasterKey], source: KeySource) {
        precondition(!keys.isEmpty, "a key ring holds at least one key")
        var unique: [MasterKey] = []
        for key in keys where !unique.contains(key) { unique.append(key) }
        self.keys = unique
        self.source = source
    }

    public var newest: MasterKey { keys[0] }

    /// The settings row a key's fingerprint is kept under.
    static func fingerprintSetting(_ key: MasterKey) -> String { fingerprintPrefix + key.name }
    static let fingerprintPrefix = "key_fingerprint:"
    /// Where the master secret was kept before keys left the database.
    static let legacySetting = "master_secret"

    /// Whether `fingerprint`, stored under the settings name `name`, is one of this ring's keys.
    func holds(fingerprint: [UInt8], named name: String) -> Bool {
        keys.contains { Self.fingerprintSetting($0) == name && $0.fingerprint == fingerprint }
    }

    /// Records in the store that `key` seals data, so a later start without it is caught.
    static func record(_ key: MasterKey, in store: any VerificationStore) async throws {
        _ = try await store.setSettingIfAbsent(fingerprintSetting(key), key.fingerprint)
    }

    /// Forgets the fingerprints of every key but the newest, once nothing stored is sealed
    /// under them: a start without them is then no longer refused.
    public func forgetOlderKeys(in store: any VerificationStore) async throws {
        for name in try await store.settings(prefix: Self.fingerprintPrefix).keys
        where name != Self.fingerprintSetting(newest) {
            try await store.deleteSetting(name)
        }
    }
}
