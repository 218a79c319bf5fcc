import Foundation

/// Hands out replies in order, repeating the last one; safe across server threads.
final class ScriptedReplies: @unchecked Sendable {
    // Safe to share: `index` is only touched under `lock`.
    private let replies: [TestHTTPServer.Reply]
    private let lock = NSLock()
    private var index = 0

    init(_ replies: [TestHTTPServer.Reply]) { self.replies = replies }

    func next() -> TestHTTPServer.Reply {
        lock.withLock {
            defer { index += 1 }
            return replies[min(index, replies.count - 1)]
        }
    }
}
