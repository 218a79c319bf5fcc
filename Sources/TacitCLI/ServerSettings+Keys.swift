import TacitServer

/// Where the master keys come from (each also a `TACIT_*` variable or config line).
extension ServerSettings {
    static let keyValued: Set<String> = ["key-file", "old-secrets"]

    static let keyUsage = """
          --secret SECRET       master secret (TACIT_SECRET); without it, keys come from the key file
          --old-secrets "A B"   secrets used before --secret, newest first, still opening what they sealed
          --key-file PATH       key file, mode 0600 (default: beside the database, <db>.key; created on first start)
        """

    static func applyKeys(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) {
        configuration.keyFile = setting("key-file")
        configuration.oldSecrets = (setting("old-secrets") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
