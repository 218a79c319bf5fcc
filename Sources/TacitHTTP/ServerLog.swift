import Foundation

/// libmicrohttpd's messages, on their way to the configured log. Some name the request
/// they are about, and a request path can hold a secret: a check URL's token, a handset's
/// phone number. So every path is cut to its first segment before the message is written
/// (`/v1/silent/checks/cu_…` becomes `/v1/…`), and that segment too when it could hold a
/// number or a token (more than 16 characters, anything but ASCII letters and digits,
/// or a run of 4 digits).
public enum ServerLog {
    /// Writes `message` to standard error, prefixed: the default `errorLog`.
    @Sendable public static func standardError(_ message: String) {
        FileHandle.standardError.write(Data("libmicrohttpd: \(message)\n".utf8))
    }

    /// `message` with every request path cut to its first segment.
    public static func maskingPaths(_ message: String) -> String {
        var output = ""
        var rest = Substring(message)
        var previous: Character = " "
        while let character = rest.first {
            guard character == "/", " `'\"(".contains(previous) else {
                output.append(character)
                previous = character
                rest = rest.dropFirst()
                continue
            }
            let path = rest.prefix { !" `'\"".contains($0) }
            rest = rest.dropFirst(path.count)
            let first = path.dropFirst().prefix { $0 != "/" }
            output += "/" + (isPlainSegment(first) ? first : "…")
            if path.count > first.count + 1 { output += "/…" }
            previous = "/"
        }
        return output
    }

    private static func isPlainSegment(_ segment: Substring) -> Bool {
        var digitRun = 0
        for byte in segment.utf8 {
            let digit = (48...57).contains(byte)
            guard digit || (65...90).contains(byte) || (97...122).contains(byte) else { return false }
            digitRun = digit ? digitRun + 1 : 0
            if digitRun >= 4 { return false }
        }
        return segment.utf8.count <= 16
    }
}
