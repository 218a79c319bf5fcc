import Testing
import TacitCore

/// An email step's address: its shape is checked, and it is shown only redacted.
@Suite("Email addresses")
struct EmailAddressTests {
    @Test("an address needs one @, a dotted domain and at most 254 bytes", arguments: [
        ("person@example.com", true), ("p@e.co", true), ("no-at-sign", false), ("two@@example.com", false),
        ("a@b@example.com", false), ("person@localhost", false), ("@example.com", false), ("person@.com", false),
        ("person@example.", false), ("per son@example.com", false), ("person@exa..mple.com", false),
        ("<person@example.com>", false), (String(repeating: "a", count: 243) + "@example.com", false),
        (String(repeating: "a", count: 242) + "@example.com", true),
    ])
    func shape(address: String, valid: Bool) {
        #expect((EmailAddress.problem(address) == nil) == valid, "\(address)")
    }

    @Test("an address is redacted to its first character and its domain")
    func redacted() {
        #expect(EmailAddress.redacted("person@example.com") == "p•••••@example.com")
        #expect(EmailAddress.normalized("Person@Example.COM") == "Person@example.com")
    }

    @Test("free text quoting an address keeps only its first character and domain")
    func scrubbed() {
        let note = Redactor.scrub("sent to person@example.com, and to <other.one@mail.example.org>")
        #expect(note == "sent to p•••••@example.com, and to <o•••••@mail.example.org>")
        #expect(!note.contains("person") && !note.contains("other.one"))
        #expect(Redactor.scrub("already p•••••@example.com") == "already p•••••@example.com")
        #expect(Redactor.scrub("a handle @acme.io") == "a handle @acme.io")
    }
}
