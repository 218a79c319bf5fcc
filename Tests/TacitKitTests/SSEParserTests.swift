import Testing
@testable import TacitKit

@Suite("SSEParser")
struct SSEParserTests {
    @Test("multi-line data is joined with newlines and ids carry over")
    func multiLine() {
        var parser = SSEParser()
        let messages = parser.feed(Array("id: 3\ndata: first\ndata:second\n\ndata: third\n\n".utf8))
        #expect(messages == [SSEMessage(id: "3", data: "first\nsecond"), SSEMessage(id: "3", data: "third")])
        #expect(parser.lastEventId == "3")
    }

    @Test("comment lines such as heartbeats dispatch nothing")
    func comments() {
        var parser = SSEParser()
        #expect(parser.feed(Array(": ping\n\n: ping\n\n".utf8)).isEmpty)
        #expect(parser.feed(Array("data: x\n: ping\n\n".utf8)) == [SSEMessage(data: "x")])
    }

    @Test("events split anywhere, with CRLF and CR line ends, parse the same")
    func splits() {
        let text = Array("id: 1\r\ndata: {\"a\":\"é\"}\r\n\r\nid: 2\rdata: b\r\r".utf8)
        for cut in 0...text.count {
            var parser = SSEParser()
            let messages = parser.feed(text[..<cut]) + parser.feed(text[cut...])
            #expect(messages == [SSEMessage(id: "1", data: "{\"a\":\"é\"}"), SSEMessage(id: "2", data: "b")], "cut at \(cut)")
        }
    }

    @Test("an event without a blank line after it is not dispatched yet")
    func incomplete() {
        var parser = SSEParser()
        #expect(parser.feed(Array("id: 9\ndata: partial\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)) == [SSEMessage(id: "9", data: "partial")])
    }

    @Test("event and retry fields are read; unknown fields are ignored")
    func fields() {
        var parser = SSEParser()
        let messages = parser.feed(Array("event: x\nretry: 500\nfoo: bar\ndata\n\n".utf8))
        #expect(messages == [SSEMessage(event: "x", data: "", retry: 500)])
    }
}
