import Testing
import TacitCore
import TacitServer

/// A text split at its placeholders writes the same message as replacing them, never
/// reads a value as a placeholder, and knows an SMS's alphabet and parts from the values.
@Suite("Placeholder texts: split once, written by appending")
struct PlaceholderTextTests {
    @Test("placeholders are replaced wherever they are, as often as they appear")
    func rendered() {
        let template = PlaceholderText("{{brand}}: {{code}} is your code. {{code}}")
        #expect(template.render(["brand": "Acme", "code": "1234"]) == "Acme: 1234 is your code. 1234")
        #expect(template.placeholders == ["brand", "code"])
    }

    @Test("a value that looks like a placeholder is written as given")
    func valuesAreNotReread() {
        let template = PlaceholderText("{{brand}} code {{code}}")
        #expect(template.render(["brand": "{{code}}", "code": "99"]) == "{{code}} code 99")
    }

    @Test("braces that are not a placeholder stay text, and a placeholder without a value stays as written")
    func notPlaceholders() {
        let template = PlaceholderText("{{ x }} {{}} {{code {{code}} }} {{minutes}}")
        #expect(template.placeholders == ["code", "minutes"])
        #expect(template.render(["code": "7"]) == "{{ x }} {{}} {{code 7 }} {{minutes}}")
    }

    @Test("the SMS encoding from the values equals the written text's", arguments: [
        ("Your {{brand}} code is {{code}}.", "Acme"), ("Ihr {{brand}}-Code: {{code}} [€]", "Ä{ö}"),
        ("Код {{brand}}: {{code}}", "Acme"), ("{{brand}} {{code}}", String(repeating: "x", count: 170)),
        ("{{code}} — {{brand}}", String(repeating: "é", count: 80)), ("你的验证码 {{code}}", "😀 Acme"),
    ])
    func encoding(text: String, brand: String) {
        let template = PlaceholderText(text)
        let values = ["brand": brand, "code": "123456"]
        #expect(template.smsEncoding(values) == SMSEncoding(template.render(values)), "\(text)")
    }

    @Test("lengths add up across alphabets: one character outside GSM-7 makes the whole text UCS-2")
    func lengthsAdd() {
        let joined = SMSEncoding.Length("abc€") + SMSEncoding.Length("д")
        #expect(joined == SMSEncoding.Length("abc€д"))
        #expect(SMSEncoding.Length("ab") * 3 == SMSEncoding.Length("ababab"))
    }
}
