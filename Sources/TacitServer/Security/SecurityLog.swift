import Foundation

/// Where security warnings go (standard error by default). Lines name reasons,
/// regions and counts, never a number, code, token or key.
public struct SecurityLog: Sendable {
    let write: @Sendable (String) -> Void

    /// A log that hands each line to `write` (tests collect them).
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    public static let standardError = SecurityLog { line in
        FileHandle.standardError.write(Data(("tacit: " + line + "\n").utf8))
    }

    func warning(_ message: String) { write("warning: " + message) }
}
