import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitTesting
@testable import TacitOperator

@Suite("Operator script, cellular range and signed answers")
struct OperatorScriptTests {
    @Test("the number's ending scripts the outcome, longest rule first", arguments: [
        ("+99012345699", OperatorScript.carrierError), ("+99012345698", .noCoverage), ("+99012345697", .neverAnswers),
        ("+99012345696", .completes(simSwappedHoursAgo: 2)), ("+99012345670", .completes(simSwappedHoursAgo: nil)),
        ("+99012345688", .completes(simSwappedHoursAgo: nil)), ("+99012345671", .rejected), ("+99012345689", .rejected),
    ])
    func script(number: String, expected: OperatorScript) {
        #expect(OperatorScript.forNumber(number) == expected)
    }

    @Test("numbers outside +990 are not the operator's")
    func foreign() {
        #expect(OperatorScript.forNumber("+14155550100") == nil)
        #expect(OperatorScript.forNumber("+990") == nil)
    }

    @Test("127.0.0.2–127.0.0.254 are cellular; 127.0.0.1, ::1 and other addresses are not")
    func cellularRange() {
        let range = CellularRange.loopbackDefault
        #expect(range.contains("127.0.0.2") && range.contains("127.0.0.254") && range.contains("::ffff:127.0.0.9"))
        #expect(!range.contains("127.0.0.1") && !range.contains("::1") && !range.contains("127.0.0.255") && !range.contains("10.0.0.2"))
        #expect(CellularRange(from: "10.0.0.9", to: "10.0.0.1") == nil)
    }

    @Test("a signed answer verifies with its key, and not after any field changes")
    func answerSignature() {
        let key = SecureRandom.bytes(32)
        let answer = OperatorAnswer(result: .match, session: "s1", state: "st", expires: Date(timeIntervalSince1970: 1_800_000_000))
        let query = Dictionary(uniqueKeysWithValues: answer.queryItems(key: key).map { ($0.name, $0.value) })
        #expect(OperatorAnswer(query: query, key: key) == answer)
        #expect(OperatorAnswer(query: query, key: SecureRandom.bytes(32)) == nil)
        for (field, value) in [("result", "no_match"), ("session", "s2"), ("state", "other"), ("expires", "1800000001")] {
            var tampered = query
            tampered[field] = value
            #expect(OperatorAnswer(query: tampered, key: key) == nil)
        }
    }

    @Test("begin opens a gateway session for covered numbers and fails the others with their reason")
    func begin() async {
        let network = VirtualOperator(clock: ManualClock())
        let expires = Date(timeIntervalSince1970: 1_796_000_060)
        func request(_ number: String) -> SilentCheckRequest { SilentCheckRequest(verificationId: "v", step: 0, phoneNumber: number, expiresAt: expires) }
        guard case .issued(let url, _) = await network.begin(request("+99012345670")) else { Issue.record("not issued"); return }
        #expect(url.hasPrefix(network.baseURL + "/operator/gateway/"))
        guard case .failed(.noCoverage, _) = await network.begin(request("+99012345698")) else { Issue.record("covered"); return }
        guard case .failed(.carrierError, _) = await network.begin(request("+99012345699")) else { Issue.record("no error"); return }
        guard case .failed(.noCoverage, _) = await network.begin(request("+14155550100")) else { Issue.record("foreign covered"); return }
        #expect(await network.swapped(phoneNumber: "+99012345696", maxAgeHours: 2) == true)
        #expect(await network.swapped(phoneNumber: "+99012345696", maxAgeHours: 1) == false)
        #expect(await network.swapped(phoneNumber: "+14155550100", maxAgeHours: 240) == nil)
    }
}
