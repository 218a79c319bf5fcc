import Testing
@testable import TacitCore

@Suite("Redactor against what a verification issued")
struct RedactorIssuedTests {
    static let tail = "AbCdEfGhIjKlMnOpQrStUvWxYz-_abcdefghijklmno"
    static let issued = IssuedSecrets(phoneNumber: "+99012345670", codeLength: 6, tokenTails: [tail]) { $0 == "616420" }

    @Test("the code, the number and the token's tail are masked however they are spaced, and nothing else is", arguments: [
        ("6-1-6-4-2-0", "••••20"),
        ("code 616 420.", "code ••••20."),
        ("６１６４２０", "••••20"),
        ("6\u{200B}1\u{200B}6\u{200B}4\u{200B}2\u{200B}0", "••••20"),
        ("line +990.123.456.70", "line +99•••••5670"),
        ("call 012 345 670", "call •••••5670"),
        ("3 of 4 tries, 5 left", "3 of 4 tries, 5 left"),
        ("typed 123 456", "typed 123 456"),
        ("tail AbCdEfGh IjKlMnOp end", "tail [redacted] end"),
        ("short AbCdEfG end", "short AbCdEfG end"),
    ])
    func scrubbed(text: String, expected: String) {
        #expect(Redactor.scrub(text, issued: Self.issued) == expected)
    }

    @Test("a code match asks the verification's test once per window of the code's length")
    func windows() {
        let asked = Asked()
        let issued = IssuedSecrets(phoneNumber: "+99012345670", codeLength: 6) { asked.add($0); return false }
        _ = Redactor.scrub("1 2 3 4 5 6 7", issued: issued)
        #expect(asked.all == ["123456", "234567"])
    }
}

/// The digits a test was asked about, in order.
final class Asked: @unchecked Sendable {
    // Only the synchronous scrub on the test's own thread touches it.
    private(set) var all: [String] = []
    func add(_ digits: String) { all.append(digits) }
}
