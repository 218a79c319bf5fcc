import Testing
@testable import TacitCrypto

/// Random bytes drawn ahead of use and handed out once each.
@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("draws across many refills of the pool never repeat, and every byte value turns up")
    func drawsNeverRepeat() {
        // 16 bytes × 4,000 draws is about sixteen refills of the 4 KB pool; any byte handed out
        // twice would repeat a whole draw, which chance alone does not do at 128 bits.
        var seen = Set<[UInt8]>()
        var values = Set<UInt8>()
        for _ in 0..<4_000 {
            let draw = SecureRandom.bytes(16)
            #expect(draw.count == 16)
            #expect(seen.insert(draw).inserted)
            values.formUnion(draw)
        }
        #expect(values.count == 256)
    }

    @Test("sizes that don't divide the pool, an empty draw, and a draw larger than the pool's share")
    func sizes() {
        #expect(SecureRandom.bytes(0).isEmpty)
        let odd = (0..<1_000).map { _ in SecureRandom.bytes(7) }
        #expect(Set(odd).count == odd.count)
        let key = SecureRandom.bytes(4_096 + 1)
        #expect(key.count == 4_097 && Set(key).count > 200)
    }
}
