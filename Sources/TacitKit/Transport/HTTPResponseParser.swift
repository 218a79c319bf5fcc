import Foundation

/// An incremental HTTP/1.1 response parser: Content-Length, chunked, or
/// read-until-close bodies.
struct HTTPResponseParser {
    private var buffer: [UInt8] = []
    private var head: (status: Int, headers: [String: String], bodyStart: Int)?
    /// Responses to HEAD carry no body whatever their headers say.
    let isHeadRequest: Bool

    init(isHeadRequest: Bool = false) { self.isHeadRequest = isHeadRequest }

    /// Adds bytes; returns the response once it is complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws -> CellularResponse? {
        buffer.append(contentsOf: bytes)
        if head == nil { head = try parseHead() }
        guard let head else { return nil }
        guard let body = try completeBody(from: head.bodyStart, headers: head.headers, status: head.status) else {
            return nil
        }
        return CellularResponse(status: head.status, headers: head.headers, body: Data(body))
    }

    /// The connection closed: returns the response if a read-until-close body ended here.
    func finish() throws -> CellularResponse {
        guard let head else {
            throw CellularTransportError(.invalidResponse, "connection closed before the response head")
        }
        guard bodyMode(head.headers, status: head.status) == .untilClose else {
            throw CellularTransportError(.invalidResponse, "connection closed mid-body")
        }
        return CellularResponse(status: head.status, headers: head.headers, body: Data(buffer[head.bodyStart...]))
    }

    private enum BodyMode: Equatable { case none, length(Int), chunked, untilClose }

    private func bodyMode(_ headers: [String: String], status: Int) -> BodyMode {
        if isHeadRequest || status == 204 || status == 304 || (100..<200).contains(status) { return .none }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true { return .chunked }
        if let length = headers["content-length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            return .length(length)
        }
        return .untilClose
    }

    private func completeBody(from start: Int, headers: [String: String], status: Int) throws -> [UInt8]? {
        switch bodyMode(headers, status: status) {
        case .none: return []
        case .length(let n): return buffer.count - start >= n ? Array(buffer[start..<(start + n)]) : nil
        case .chunked: return try decodeChunked(from: start)
        case .untilClose: return nil
        }
    }

    private func parseHead() throws -> (Int, [String: String], Int)? {
        guard let end = find([13, 10, 13, 10], from: 0) else {
            if buffer.count > 64 * 1024 { throw CellularTransportError(.invalidResponse, "response head too large") }
            return nil
        }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw CellularTransportError(.invalidResponse, "malformed status line")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers, end + 4)
    }

    private func decodeChunked(from start: Int) throws -> [UInt8]? {
        var body: [UInt8] = []
        var at = start
        while true {
            guard let lineEnd = find([13, 10], from: at) else { return nil }
            let sizeText = String(decoding: buffer[at..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw CellularTransportError(.invalidResponse, "malformed chunk size")
            }
            at = lineEnd + 2
            if size == 0 { return find([13, 10, 13, 10], from: lineEnd) != nil ? body : nil }
            guard buffer.count >= at + size + 2 else { return nil }
            body.append(contentsOf: buffer[at..<(at + size)])
            at += size + 2
        }
    }

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard buffer.count >= needle.count, from <= buffer.count - needle.count else { return nil }
        for i in from...(buffer.count - needle.count) where buffer[i] == needle[0] {
            if Array(buffer[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}
