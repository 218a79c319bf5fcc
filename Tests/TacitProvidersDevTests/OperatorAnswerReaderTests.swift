import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitOperator
import TacitServer
@testable import TacitProvidersDev

@Suite("The virtual operator's answers as silent verdicts")
struct OperatorAnswerReaderTests {
    static let key = OperatorConfiguration.key(fromSecret: "s3cret")

    static func query(_ answer: OperatorAnswer, key: [UInt8] = key) -> [String: String] {
        Dictionary(answer.queryItems(key: key).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    @Test("a signed answer becomes the verdict with its state, session and expiry", arguments: OperatorAnswer.Result.allCases)
    func signedAnswer(result: OperatorAnswer.Result) async throws {
        let expires = Date(timeIntervalSince1970: 1_796_000_000)
        let answer = OperatorAnswer(result: result, session: "sess_1", state: "cu_state", expires: expires)
        let verdict = try #require(await OperatorAnswerReader(key: Self.key).verdict(for: SilentCallback(query: Self.query(answer))))
        #expect(verdict == SilentVerdict(result: OperatorAnswerReader.result(result), state: "cu_state", session: "sess_1", expires: expires))
    }

    @Test("each operator result maps to its own verdict")
    func resultsAreDistinct() {
        let mapped = OperatorAnswer.Result.allCases.map(OperatorAnswerReader.result)
        #expect(Set(mapped.map { "\($0)" }).count == OperatorAnswer.Result.allCases.count)
        #expect(OperatorAnswerReader.result(.match) == .match)
        #expect(OperatorAnswerReader.result(.noMatch) == .noMatch)
        #expect(OperatorAnswerReader.result(.notCellular) == .notCellular)
    }

    @Test("an answer signed with another key, or with a changed field, is no verdict")
    func forgedAnswer() async {
        let answer = OperatorAnswer(result: .match, session: "sess_1", state: "cu_state", expires: Date(timeIntervalSince1970: 1_796_000_000))
        let reader = OperatorAnswerReader(key: Self.key)
        #expect(await reader.verdict(for: SilentCallback(query: Self.query(answer, key: SecureRandom.bytes(32)))) == nil)
        var moved = Self.query(answer)
        moved["state"] = "cu_other"
        #expect(await reader.verdict(for: SilentCallback(query: moved)) == nil)
        #expect(await reader.verdict(for: SilentCallback(query: [:])) == nil)
    }
}
