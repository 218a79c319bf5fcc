/// Where the key ring comes from, for messages that must name the setting, never a value.
public enum KeySource: Sendable, Equatable {
    /// `TACIT_SECRET` (newest) and `TACIT_OLD_SECRETS`, plus the key file when one exists.
    case secret(keyFile: String?)
    /// The key file at this path (`TACIT_KEY_FILE`, or beside the database).
    case keyFile(String)
    /// No file and no secret: an in-memory or unnamed database, whose data ends with the process.
    case ephemeral

    var setting: String {
        switch self {
        case .secret(let file?): "TACIT_SECRET (with TACIT_OLD_SECRETS and the key file \(file))"
        case .secret(nil): "TACIT_SECRET (with TACIT_OLD_SECRETS)"
        case .keyFile(let path): "TACIT_KEY_FILE (\(path))"
        case .ephemeral: "TACIT_KEY_FILE"
        }
    }

    var fix: String {
        switch self {
        case .secret: "give the secret it was sealed with, in TACIT_SECRET or TACIT_OLD_SECRETS"
        case .keyFile: "restore the key file it was sealed with, or set TACIT_KEY_FILE or TACIT_SECRET to its key"
        case .ephemeral: "set TACIT_KEY_FILE or TACIT_SECRET"
        }
    }
}
