import Foundation

/// The process's standard output or error, written unbuffered: a line is on the pipe the
/// moment a command writes it, with no stdio buffer to flush.
public struct StandardStream: TextOutput {
    private let descriptor: Int32

    /// File descriptor 1.
    public static let output = StandardStream(descriptor: STDOUT_FILENO)
    /// File descriptor 2.
    public static let error = StandardStream(descriptor: STDERR_FILENO)

    public func write(_ text: String) {
        FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(Data(text.utf8))
    }

    public var isTerminal: Bool { isatty(descriptor) == 1 }
}
