import CCurlSMTP
import Dispatch
import Foundation

/// What one submission to the mail server came to: libcurl's result and the server's
/// last reply code (0 when it never answered).
struct SMTPReply: Sendable, Equatable {
    var curlCode: Int32
    var responseCode: Int
}

/// Hands one message to the mail server: the port the sender is tested through.
protocol SMTPTransport: Sendable {
    func submit(_ message: [UInt8], from: String, to: String, settings: SMTPSettings) async -> SMTPReply
}

/// libcurl's SMTP client. A submission blocks its thread for the whole exchange, so it
/// runs on a dispatch queue of its own, never on Swift's cooperative pool.
struct CurlSMTPTransport: SMTPTransport {
    private static let queue = DispatchQueue(label: "tacit.smtp", attributes: .concurrent)

    func submit(_ message: [UInt8], from: String, to: String, settings: SMTPSettings) async -> SMTPReply {
        await withCheckedContinuation { continuation in
            Self.queue.async {
                continuation.resume(returning: Self.perform(message, from: from, to: to, settings: settings))
            }
        }
    }

    private static func perform(_ message: [UInt8], from: String, to: String, settings: SMTPSettings) -> SMTPReply {
        var response = 0
        var words = [CChar](repeating: 0, count: 256)
        let code = message.withUnsafeBufferPointer { body in
            tacit_smtp_send(settings.url, settings.username, settings.password, "<\(from)>", "<\(to)>",
                            settings.caFile, settings.implicitTLS ? 1 : 0, body.baseAddress, body.count,
                            Int(settings.timeout * 1000), &response, &words, words.count)
        }
        return SMTPReply(curlCode: code, responseCode: response)
    }
}
