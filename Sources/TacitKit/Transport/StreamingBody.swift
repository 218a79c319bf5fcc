import Foundation

/// An HTTP/1.1 response read as a stream: the head first, then the body handed on
/// piece by piece as it arrives (chunked, Content-Length, or until close).
struct StreamingBody {
    private(set) var status = 0
    private(set) var isComplete = false
    private var headBuffer: [UInt8] = []
    private var chunked: ChunkedDecoder?
    private var remaining: Int?

    /// Consumes bytes from the connection; returns the body bytes they carry.
    mutating func feed(_ bytes: [UInt8]) throws -> [UInt8] {
        guard status == 0 else { return try body(bytes) }
        headBuffer += bytes
        guard let end = headBuffer.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) else { return [] }
        try parseHead(String(decoding: headBuffer[..<end.lowerBound], as: UTF8.self))
        let rest = Array(headBuffer[end.upperBound...])
        headBuffer = []
        return try body(rest)
    }

    private mutating func parseHead(_ text: String) throws {
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw CellularTransportError(.invalidResponse, "bad status line")
        }
        status = code
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = ChunkedDecoder() }
            if name == "content-length" { remaining = Int(value) }
        }
        if chunked != nil { remaining = nil }
        if remaining == 0 || code == 204 || code == 304 { isComplete = true }
    }

    private mutating func body(_ bytes: [UInt8]) throws -> [UInt8] {
        if var decoder = chunked {
            let out = try decoder.feed(bytes)
            chunked = decoder
            isComplete = decoder.isDone
            return out
        }
        guard let left = remaining else { return bytes }
        let out = Array(bytes.prefix(left))
        remaining = left - out.count
        isComplete = remaining == 0
        return out
    }
}

/// Decodes `Transfer-Encoding: chunked` incrementally, across any split.
struct ChunkedDecoder {
    private enum State { case size, data(Int), dataEnd(Int), trailer }
    private var state = State.size
    private var line: [UInt8] = []
    private(set) var isDone = false

    mutating func feed(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count && !isDone {
            switch state {
            case .data(let left):
                let take = min(left, bytes.count - index)
                out += bytes[index..<index + take]
                index += take
                state = left == take ? .dataEnd(2) : .data(left - take)
            case .dataEnd(let left):
                index += 1
                state = left == 1 ? .size : .dataEnd(left - 1)
            case .size, .trailer:
                let byte = bytes[index]
                index += 1
                if byte == 0x0A { try endLine() } else if byte != 0x0D { line.append(byte) }
            }
        }
        return out
    }

    private mutating func endLine() throws {
        defer { line.removeAll() }
        guard case .size = state else {
            if line.isEmpty { isDone = true }
            return
        }
        let text = String(decoding: line, as: UTF8.self)
        let hex = text.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let size = Int(hex, radix: 16), size >= 0 else {
            throw CellularTransportError(.invalidResponse, "bad chunk size")
        }
        state = size == 0 ? .trailer : .data(size)
    }
}
