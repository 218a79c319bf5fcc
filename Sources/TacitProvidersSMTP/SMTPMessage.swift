import Foundation
import TacitCore

/// One email code as the bytes an SMTP server is handed (RFC 5322 and MIME): a
/// multipart/alternative of the text and its HTML rendering, both UTF-8 in base64, a
/// subject in RFC 2047 encoded words when it is not ASCII, and `Auto-Submitted:
/// auto-generated` so that no mail server answers it with an out-of-office reply.
struct SMTPMessage {
    var from: String
    var to: String
    var subject: String
    var text: String
    var html: String
    /// The part of the `Message-ID` before the `@`: letters and digits only, so it can
    /// stand on the timeline as the provider's message id.
    var id: String
    var date: Date
    var boundary: String

    /// The `Message-ID` header's value.
    var messageId: String { "<\(id)@\(Self.domain(of: from))>" }

    /// The whole message, CRLF lines.
    var bytes: [UInt8] {
        var lines = [
            "From: \(from)",
            "To: \(to)",
            "Subject: \(Self.encodedHeader(subject))",
            "Date: \(Self.dateHeader(date))",
            "Message-ID: \(messageId)",
            "Auto-Submitted: auto-generated",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
        ]
        for (type, content) in [("text/plain", text), ("text/html", html)] {
            lines += ["--\(boundary)", "Content-Type: \(type); charset=UTF-8", "Content-Transfer-Encoding: base64", ""]
            lines += Self.base64Lines(Array(content.utf8))
        }
        lines += ["--\(boundary)--", ""]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    /// The domain an address is at, for the `Message-ID`.
    static func domain(of address: String) -> String {
        address.lastIndex(of: "@").map { String(address[address.index(after: $0)...]) } ?? "localhost"
    }

    /// ASCII text as it is; anything else as `=?UTF-8?B?…?=` words of whole characters,
    /// each at most 75 characters long, folded onto lines of their own.
    static func encodedHeader(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) else { return text }
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            // 45 bytes are 60 in base64, which with the 12 of `=?UTF-8?B?` and `?=` stays within 75.
            if chunk.count + bytes.count > 45 {
                words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }

    /// RFC 5322's date: `Tue, 04 Mar 2025 09:30:00 +0000`.
    static func dateHeader(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// Base64 in lines of 76 characters, as MIME asks.
    static func base64Lines(_ bytes: [UInt8]) -> [String] {
        let encoded = Data(bytes).base64EncodedString()
        var lines: [String] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<end]))
            index = end
        }
        return lines
    }
}
