import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitStore

extension TimelineRoutes {
    /// Where a read starts: `Last-Event-ID` (an SSE reconnect) wins over `?after=`.
    func resumePoint(_ request: HTTPRequest) throws(APIProblem) -> Int {
        if let lastEventID = request.header("last-event-id"), !lastEventID.isEmpty {
            return try sequenceNumber(lastEventID, name: "Last-Event-ID")
        }
        guard let after = request.query["after"] else { return 0 }
        return try sequenceNumber(after, name: "after")
    }

    private func sequenceNumber(_ text: String, name: String) throws(APIProblem) -> Int {
        guard (1...18).contains(text.count), text.allSatisfy(\.isASCIIDigitCharacter), let value = Int(text) else {
            throw APIProblem.invalid([InvalidParameter(name: name, reason: "must be a non-negative integer")])
        }
        return value
    }

    /// `?limit=`: 1 to the page size; the page size when absent.
    func pageLimit(_ request: HTTPRequest) throws(APIProblem) -> Int {
        guard let text = request.query["limit"] else { return limits.pageSize }
        guard (1...7).contains(text.count), text.allSatisfy(\.isASCIIDigitCharacter), let value = Int(text),
              (1...limits.pageSize).contains(value) else {
            throw APIProblem.invalid([InvalidParameter(name: "limit",
                                                       reason: "must be an integer from 1 to \(limits.pageSize)")])
        }
        return value
    }

    /// The `Authorization: Bearer …` value; its absence is a 401.
    func bearerToken(_ request: HTTPRequest) throws(APIProblem) -> String {
        guard let token = request.bearer, !token.isEmpty, token.count <= 256 else { throw .clientTokenMissing }
        return token
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
