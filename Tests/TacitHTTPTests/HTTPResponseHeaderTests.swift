import Testing
@testable import TacitHTTP

/// A response's headers are found by name as HTTP compares names: ASCII letters in either case.
@Suite("Response header lookup")
struct HTTPResponseHeaderTests {
    @Test("a header is found whatever the case of its name's letters, the first of several")
    func caseOfLetters() {
        let response = HTTPResponse(status: 202, headers: [("Content-Type", "application/json"),
                                                           ("Idempotent-Replayed", "true"),
                                                           ("idempotent-replayed", "second")])
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("IDEMPOTENT-REPLAYED") == "true")
        #expect(response.header("Idempotent-Replaye") == nil)
        #expect(response.header("Location") == nil)
    }

    @Test("only letters fold: characters 32 apart that are not letters stay different")
    func onlyLetters() {
        #expect(HTTPResponse.sameName("X-A", "x-a"))
        #expect(!HTTPResponse.sameName("X-@", "x-`"), "@ and ` are 32 apart, and neither is a letter")
        #expect(!HTTPResponse.sameName("X-[", "x-{"))
        #expect(!HTTPResponse.sameName("Ä", "ä"), "outside ASCII, case is not folded")
    }
}
