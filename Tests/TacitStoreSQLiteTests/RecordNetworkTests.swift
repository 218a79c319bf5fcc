import Foundation
import Testing
import TacitCore
import TacitStore

@Suite("The stored record keeps the mobile network a receipt named for a send")
struct RecordNetworkTests {
    static func verification(networks: [String?]) -> Verification {
        var v = RecordSilentCheckTests.verification()
        v.acceptedSends = networks.enumerated().map { index, network in
            AcceptedSend(step: 0, channel: .sms, provider: "vonage", acceptedAt: Date(timeIntervalSince1970: 1_796_000_000),
                         receipt: index == 0 ? .delivered : nil, network: network)
        }
        return v
    }

    @Test("each send's network comes back as it was written; a record with none ends where it did before networks")
    func roundTrip() throws {
        let v = Self.verification(networks: ["23410", nil, "310260"])
        #expect(try RecordSilentCheckTests.decoded(VerificationRecord.encode(v)).acceptedSends == v.acceptedSends)
        let plain = Self.verification(networks: [nil, nil])
        let bytes = VerificationRecord.encode(plain)
        #expect(try RecordSilentCheckTests.decoded(bytes).acceptedSends == plain.acceptedSends)
        // The same sends with a network add one optional per send at the end, and nothing else.
        let named = VerificationRecord.encode(Self.verification(networks: [nil, "23410"]))
        #expect(Array(named.prefix(bytes.count)) == bytes)
    }
}
