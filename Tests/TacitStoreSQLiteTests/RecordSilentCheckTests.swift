import Foundation
import Testing
import TacitCore
import TacitStore

@Suite("The stored record keeps a silent step's provider check")
struct RecordSilentCheckTests {
    static func verification() -> Verification {
        Verification(id: "vf_1", phoneNumber: "+447400123456", options: VerificationOptions(),
                     clientTokenHash: [1, 2, 3], createdAt: Date(timeIntervalSince1970: 1_796_000_000))
    }

    static func decoded(_ bytes: [UInt8]) throws -> Verification {
        try VerificationRecord.decode(bytes).verification(id: "vf_1", phoneNumber: "+447400123456", status: .pending, deadline: nil,
                                                          createdAt: Date(timeIntervalSince1970: 1_796_000_000), lastSeq: 0)
    }

    @Test("the provider and its reference come back as they were written")
    func roundTrip() throws {
        var v = Self.verification()
        v.silentCheck = SilentCheckReference(step: 0, provider: "truid", reference: "c69bc0e6-a429-11ea-bb37-0242ac130002")
        #expect(try Self.decoded(VerificationRecord.encode(v)).silentCheck == v.silentCheck)
    }

    @Test("a record written before the field existed still reads, with no provider check")
    func olderRecord() throws {
        let bytes = VerificationRecord.encode(Self.verification())
        // The field is one optional at the end: without it, the record is the earlier format.
        let older = Array(bytes.dropLast())
        #expect(try Self.decoded(older).silentCheck == nil)
        #expect(try Self.decoded(older).clientTokenHash == [1, 2, 3])
    }
}
