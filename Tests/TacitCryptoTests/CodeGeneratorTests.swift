import Testing
import TacitCrypto

@Suite("Code generator")
struct CodeGeneratorTests {
    @Test("secure codes have the asked length and only decimal digits", arguments: CodeGenerator.allowedLengths)
    func lengthAndDigits(length: Int) {
        for _ in 0..<50 {
            let code = CodeGenerator.secure.generate(length)
            #expect(code.count == length)
            #expect(code.allSatisfy { $0.isASCII && $0.isNumber })
        }
    }

    @Test("every digit appears, and in every position, over a few thousand codes")
    func distribution() {
        var counts = [Character: Int]()
        var firstDigits = Set<Character>()
        for _ in 0..<2_000 {
            let code = CodeGenerator.secure.generate(6)
            firstDigits.insert(code.first!)
            for digit in code { counts[digit, default: 0] += 1 }
        }
        #expect(counts.count == 10)
        #expect(firstDigits.count == 10)
        // 12,000 digits: about 1,200 each. A uniform source lands far inside this
        // band; a stuck or heavily biased one does not.
        for (_, count) in counts { #expect((900...1_500).contains(count)) }
    }

    @Test("two secure codes are almost never equal")
    func unpredictable() {
        let codes = Set((0..<100).map { _ in CodeGenerator.secure.generate(10) })
        #expect(codes.count > 95)
    }

    @Test("fixed and sequenced generators return what the test asked for")
    func testGenerators() {
        #expect(CodeGenerator.fixed("123456").generate(6) == "123456")
        let sequence = CodeGenerator.sequence(["1111", "2222"])
        #expect([sequence.generate(4), sequence.generate(4), sequence.generate(4)] == ["1111", "2222", "1111"])
    }
}
