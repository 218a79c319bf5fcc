import Testing
import TacitCore

@Suite("Text shapes checked byte by byte")
struct TextShapeTests {
    @Test("token text is ASCII letters, digits, - and _ only", arguments: [
        ("vf_01a22b6e7460fIcS7tzIpbDrUA", true), ("sa_AbC-123", true), ("", true),
        ("vf 01", false), ("vf/01", false), ("vf_é1", false), ("vf_\u{0661}", false), ("ＡＢＣ", false), ("vf_01\n", false),
    ])
    func tokenText(text: String, expected: Bool) {
        #expect(text.isTokenText == expected)
    }

    @Test("ASCII digits exclude every other script's digits", arguments: [
        ("0123456789", true), ("12a4", false), ("\u{0661}\u{0662}\u{0663}", false), ("１２３", false), ("12 3", false),
    ])
    func asciiDigits(text: String, expected: Bool) {
        #expect(text.isASCIIDigits == expected)
    }

    @Test("a case-insensitive search matches ASCII case only", arguments: [
        ("Application/XML; charset=utf-8", "xml", true), ("multipart/form-data", "multipart/", true),
        ("application/json", "xml", false), ("", "xml", false), ("xm", "xml", false), ("TEXT/HTML", "text/html", true),
        ("application/\u{0130}ml", "xml", false), ("text/htm", "text/html", false),
    ])
    func caseInsensitiveSearch(text: String, needle: String, expected: Bool) {
        #expect(text.containsBytes(needle, ignoringASCIICase: true) == expected)
    }

    @Test("digits are appended in decimal, zero-padded to the width", arguments: [
        (UInt64(0), 1, "0"), (7, 2, "07"), (2026, 4, "2026"), (5, 3, "005"), (123_456, 2, "123456"),
        (UInt64.max, 1, "18446744073709551615"),
    ])
    func appendedDigits(value: UInt64, width: Int, expected: String) {
        var bytes = Array("x".utf8)
        bytes.appendDigits(value, width: width)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + expected)
    }
}
