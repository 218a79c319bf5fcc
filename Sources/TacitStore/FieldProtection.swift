/// How a store protects personal fields at rest: phone numbers are sealed (encrypted
/// and authenticated) and looked up by a keyed hash, so a copy of the database file
/// holds no number in clear.
public protocol FieldProtection: Sendable {
    /// Throws when the cipher fails (the server's fault: the request fails, not the process).
    func seal(_ plaintext: [UInt8]) throws -> [UInt8]
    func open(_ sealed: [UInt8]) throws -> [UInt8]
    /// A keyed, deterministic hash for equality lookups.
    func index(_ value: String) throws -> String
    /// `value`'s index under every key that may have indexed stored rows, `index(value)`
    /// first: after a key rotation, rows indexed before it are found until resealed.
    func indexes(_ value: String) throws -> [String]
}

extension FieldProtection {
    public func indexes(_ value: String) throws -> [String] { [try index(value)] }
}
