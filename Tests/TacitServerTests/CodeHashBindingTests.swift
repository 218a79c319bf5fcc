import Testing
import TacitServer

/// A code is stored as a keyed hash of the verification id, the step and the code, so a
/// stored hash only matches the code issued for that verification's step: a code copied
/// from another verification, or from an earlier step of the same one, hashes otherwise.
@Suite("Code hashes are bound to their verification and step")
struct CodeHashBindingTests {
    static let secrets = ServerSecrets(master: Array(repeating: 7, count: 32))

    @Test("the same code, verification and step always hash the same")
    func deterministic() throws {
        let first = try Self.secrets.codeHash("123456", verificationId: "ver_a", step: 0)
        #expect(first.count == 32)
        #expect(try Self.secrets.codeHash("123456", verificationId: "ver_a", step: 0) == first)
        #expect(try ServerSecrets(master: Array(repeating: 7, count: 32)).codeHash("123456", verificationId: "ver_a", step: 0) == first)
    }

    @Test("the same code hashes differently for another verification, another step or another code", arguments: [
        ("123456", "ver_b", 0), ("123456", "ver_a", 1), ("123457", "ver_a", 0), ("123456", "ver_a:0", 0),
    ])
    func boundToVerificationAndStep(code: String, verificationId: String, step: Int) throws {
        let issued = try Self.secrets.codeHash("123456", verificationId: "ver_a", step: 0)
        #expect(try Self.secrets.codeHash(code, verificationId: verificationId, step: step) != issued)
    }

    @Test("ids and steps can't be traded for each other: ver_1 step 23 and ver_12 step 3 differ")
    func unambiguous() throws {
        #expect(try Self.secrets.codeHash("1234", verificationId: "ver_1", step: 23)
            != Self.secrets.codeHash("1234", verificationId: "ver_12", step: 3))
    }

    @Test("another master secret gives another hash, so a code's hash reveals nothing across servers")
    func keyed() throws {
        let other = ServerSecrets(master: Array(repeating: 8, count: 32))
        #expect(try other.codeHash("123456", verificationId: "ver_a", step: 0)
            != Self.secrets.codeHash("123456", verificationId: "ver_a", step: 0))
    }
}
