import Foundation

extension ServerConfiguration {
    /// A quarter of a second: the dev inbox and a quick provider answer well within it, so
    /// the caller sees the send's outcome; a slow provider no longer holds the request.
    public static let defaultSendWait: TimeInterval = 0.25
}
