/// Why the server can't get its keys, with a stable code. The description is one line
/// that names the setting or file and what to do; it never holds a key or a secret.
public struct KeySetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `key_missing`, `key_file_exposed`, `key_file_unreadable` or `key_file_malformed`.
    public var code: String
    public var description: String

    public init(code: String, description: String) {
        self.code = code
        self.description = description
    }

    /// The database holds the fingerprint of a key the configured keys don't include.
    static func missing(_ source: KeySource) -> KeySetupError {
        KeySetupError(code: "key_missing", description: "the database was sealed with a key that \(source.setting)"
                                                        + " doesn't hold; \(source.fix)")
    }

    /// The database was sealed before, and the key file that should hold its key is gone.
    static func missingFile(_ path: String) -> KeySetupError {
        KeySetupError(code: "key_missing",
                      description: "the database was sealed with a key, but TACIT_KEY_FILE (\(path)) doesn't exist;"
                                   + " restore the key file, or set TACIT_SECRET to its key")
    }

    static func exposed(_ path: String) -> KeySetupError {
        KeySetupError(code: "key_file_exposed",
                      description: "the key file \(path) is readable by group or others;"
                                   + " run `chmod 600 \(path)` and start again")
    }

    static func unreadable(_ path: String, _ reason: String) -> KeySetupError {
        KeySetupError(code: "key_file_unreadable", description: "the key file \(path) can't be used: \(reason)")
    }

    static func malformed(_ path: String, line: Int) -> KeySetupError {
        KeySetupError(code: "key_file_malformed",
                      description: "the key file \(path) has a malformed line \(line); each key is 64 hex digits on its"
                                   + " own line")
    }
}
