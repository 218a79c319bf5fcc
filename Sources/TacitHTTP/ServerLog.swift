import Foundation

/// libmicrohttpd's messages, on their way to the configured log. Some name the request
/// they are about, and a request target can hold a secret: a check URL's token, a
/// handset's phone number. So every path is cut to its first segment before the message
/// is written (`/v1/silent/checks/cu_…` becomes `/v1/…`), and that segment too when it
/// could hold a number or a token (more than 16 characters, anything but ASCII letters
/// and digits, or a run of 4 digits).
///
/// A path is any `/` that doesn't continue a word (`TCP/IP` and `HTTP/1.1` stay), so an
/// absolute-form target (`http://host/v1/dev/handsets/+990…/inbox`) is cut at its `//`
/// and loses its host and path alike. A client chooses the target, and may send one
/// that is no path at all, so any other word that could be a number or a token (a run
/// of 6 digits, or 20 characters of a token's alphabet with a digit) is masked too.
public enum ServerLog {
    /// Writes `message` to standard error, prefixed: the default `errorLog`.
    @Sendable public static func standardError(_ message: String) {
        FileHandle.standardError.write(Data("libmicrohttpd: \(message)\n".utf8))
    }

    /// Characters that end a path or a word in libmicrohttpd's messages.
    private static let delimiters: Set<Character> = [" ", "`", "'", "\"", "\n", "\t"]

    /// `message` with every request path and URL cut to its first segment, and every
    /// word that could be a number or a token masked.
    public static func maskingPaths(_ message: String) -> String {
        var output = ""
        var rest = Substring(message)
        var previous: Character = " "
        while let character = rest.first {
            if character == "/", !continuesWord(previous) {
                let path = rest.prefix { !delimiters.contains($0) }
                rest = rest.dropFirst(path.count)
                output += masked(path: path)
                previous = "/"
            } else if continuesWord(character), !continuesWord(previous) {
                let word = rest.prefix { continuesWord($0) }
                rest = rest.dropFirst(word.count)
                output += couldBeSecret(word) ? "…" : word
                previous = word.last ?? previous
            } else {
                output.append(character)
                previous = character
                rest = rest.dropFirst()
            }
        }
        return output
    }

    /// `/first/…`, or `/…` when the first segment could hold a secret.
    private static func masked(path: Substring) -> String {
        let first = path.dropFirst().prefix { $0 != "/" }
        var output = "/" + (isPlainSegment(first) ? String(first) : "…")
        if path.count > first.count + 1 { output += "/…" }
        return output
    }

    /// Letters, digits (of any script: a full-width number is still a number) and the
    /// characters a token or a number is written with.
    private static func continuesWord(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "_-+.~%".contains(character)
    }

    private static func couldBeSecret(_ word: Substring) -> Bool {
        var digitRun = 0, longest = 0
        for character in word {
            digitRun = character.isNumber ? digitRun + 1 : 0
            longest = max(longest, digitRun)
        }
        return longest >= 6 || (word.count >= 20 && longest > 0)
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
