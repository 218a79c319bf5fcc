import Foundation
import Testing
@testable import TacitKit

/// The streaming HTTP reader behind Linux event streams.
@Suite("StreamingBody")
struct StreamingBodyTests {
    static let chunked = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nid: 1\n\r\nC;ext=1\r\ndata: {}\n\nab\r\n0\r\n\r\n".utf8)

    static func read(_ bytes: [UInt8], splitEvery size: Int) throws -> (StreamingBody, String) {
        var body = StreamingBody()
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count && !body.isComplete {
            let end = min(bytes.count, index + size)
            out += try body.feed(Array(bytes[index..<end]))
            index = end
        }
        return (body, String(decoding: out, as: UTF8.self))
    }

    @Test("a chunked body decodes the same however the bytes are split", arguments: [1, 2, 3, 7, 500])
    func chunkedSplits(size: Int) throws {
        let (body, text) = try Self.read(Self.chunked, splitEvery: size)
        #expect(body.status == 200 && body.isComplete)
        #expect(text == "id: 1\ndata: {}\n\nab")
    }

    @Test("a Content-Length body stops at its length; an error status comes through")
    func contentLength() throws {
        let bytes = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nhelloEXTRA".utf8)
        let (body, text) = try Self.read(bytes, splitEvery: 4)
        #expect(body.status == 404 && body.isComplete && text == "hello")
    }

    @Test("a bad status line or chunk size is an error")
    func malformed() throws {
        var body = StreamingBody()
        #expect(throws: CellularTransportError.self) { try body.feed(Array("HTTX 200\r\n\r\n".utf8)) }
        var chunked = StreamingBody()
        #expect(throws: CellularTransportError.self) {
            try chunked.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8))
        }
    }
}
