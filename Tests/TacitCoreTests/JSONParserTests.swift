import Foundation
import Testing
import TacitCore

@Suite("JSON parser")
struct JSONParserTests {
    @Test("valid documents parse to the same value Foundation's decoder gives", arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
        #"  [ -0.5 , 1e3, 2E-2, 0, 123456789 ]  "#,
        #""caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n""#,
        #"{"phone_number":"+99012345670","workflow":[{"channel":"sms"}],"code_length":6}"#,
        #"{}"#, #"[]"#, #""""#,
    ])
    func matchesFoundation(_ text: String) throws {
        let ours = try JSONParser.parse(Array(text.utf8))
        let theirs = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ours == theirs)
    }

    @Test("malformed documents are refused", arguments: [
        "", " ", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-", "1e", "+1",
        "tru", "nul", "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"", "[1] [2]", "\"tab\there\"", "NaN",
        "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1,\"b\":1}}", "{\"\\u0061\":1,\"a\":2}",
    ])
    func refusesMalformed(_ text: String) {
        #expect(throws: JSONParser.Malformed.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test("deep nesting is refused instead of exhausting the stack")
    func boundedDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Malformed.self) { try JSONParser.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(throws: Never.self) { try JSONParser.parse(Array(fine.utf8)) }
    }

    @Test("invalid UTF-8 in a string is refused")
    func invalidUTF8() {
        #expect(throws: JSONParser.Malformed.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }
}

@Suite("Token scrubbing")
struct TokenScrubTests {
    @Test("a token is masked, a word that merely contains a prefix is not")
    func prefixesAtWordStarts() {
        #expect(Redactor.scrub("device:redirect_followed") == "device:redirect_followed")
        #expect(Redactor.scrub("the token ct_abcdefghijklmnop leaked") == "the token [redacted] leaked")
        #expect(Redactor.scrub("url=/v1/silent/checks/cu_abcdefghijklmnop") == "[redacted]")
    }

    @Test("strings the writer copies whole or escapes read back the same", arguments: [
        "plain ascii", "", "caf\u{e9} \u{1F600}", "quote \" and backslash \\", "line\nbreak\r\ttab", "nul \u{0} bell \u{7}",
    ])
    func writerStrings(_ text: String) throws {
        var writer = JSONWriter()
        writer.object([("k", .string(text))])
        #expect(try JSONParser.parse(writer.bytes) == .object(["k": .string(text)]))
    }
}
