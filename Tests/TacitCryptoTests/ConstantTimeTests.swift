import Testing
import TacitCrypto

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test("equal bytes compare equal, including empty ones")
    func equal() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equals([], []))
        #expect(ConstantTime.equals("123456", "123456"))
    }

    @Test("a difference anywhere makes them unequal")
    func differentBytes() {
        #expect(!ConstantTime.equals([1, 2, 3], [0, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals("123456", "123457"))
    }

    @Test("different lengths are unequal, even when one is a prefix of the other")
    func differentLengths() {
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([], [0]))
        #expect(!ConstantTime.equals("12345", "123456"))
    }
}
