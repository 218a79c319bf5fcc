/// Where a command writes text: the process's standard output or error, or a test's buffer.
public protocol TextOutput: Sendable {
    /// Writes `text` as it is, at once: a reader of a pipe sees it without waiting for more.
    func write(_ text: String)
    /// Whether a person's terminal reads this output, so colour may be used.
    var isTerminal: Bool { get }
}

extension TextOutput {
    public var isTerminal: Bool { false }
}
