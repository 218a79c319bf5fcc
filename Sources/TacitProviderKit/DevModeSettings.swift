import Foundation

/// What the server's settings tell the development providers: whether dev mode is on
/// (`--dev`), and how the virtual operator and the handset inbox behave
/// (`docs/operator.md`). The server's configuration is one.
public protocol DevModeSettings {
    /// Dev mode: the virtual operator and the handset inbox serve the virtual range.
    var dev: Bool { get }
    /// The secret the virtual operator's answers are signed under; nil for a fresh key.
    var operatorSecret: String? { get }
    /// How long the in-process operator takes to answer, in milliseconds.
    var operatorLatencyMilliseconds: Int { get }
    /// How long the handset inbox takes to take a message, in milliseconds.
    var inboxLatencyMilliseconds: Int { get }
}
