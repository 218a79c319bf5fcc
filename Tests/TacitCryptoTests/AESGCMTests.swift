import Testing
import TacitCrypto

@Suite("AES-256-GCM sealing")
struct AESGCMTests {
    static let key = (0..<32).map { UInt8($0) }

    @Test("sealed bytes open to the plaintext, with a fresh nonce each time, also from many tasks at once")
    func roundTrip() async throws {
        let cipher = AESGCM(key: Self.key)
        for plaintext in [[], Array("+99012345670".utf8), [UInt8](repeating: 7, count: 1000)] {
            let first = try cipher.seal(plaintext), second = try cipher.seal(plaintext)
            #expect(first.count == plaintext.count + 28)
            #expect(first != second)
            #expect(try cipher.open(first) == plaintext)
            #expect(try AESGCM(key: Self.key).open(second) == plaintext)
        }
        let message = Array("+99012345671".utf8)
        let opened = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<32 { group.addTask { try? cipher.open(cipher.seal(message)) } }
            return await group.reduce(into: [[UInt8]?]()) { $0.append($1) }
        }
        #expect(opened.count == 32 && opened.allSatisfy { $0 == message })
    }

    @Test("a changed byte anywhere, a short input or another key fails to open, and the cipher works on after")
    func tampering() throws {
        let cipher = AESGCM(key: Self.key)
        let sealed = try cipher.seal(Array("+99012345670".utf8))
        for index in sealed.indices {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(throws: AESGCM.OpenError.self) { try cipher.open(changed) }
        }
        #expect(throws: AESGCM.OpenError.self) { try cipher.open(Array(sealed.prefix(27))) }
        #expect(throws: AESGCM.OpenError.self) { try AESGCM(key: [UInt8](repeating: 9, count: 32)).open(sealed) }
        // The contexts those failures used are reused, and start clean.
        #expect(try cipher.open(sealed) == Array("+99012345670".utf8))
        #expect(try cipher.open(try cipher.seal([1, 2, 3])) == [1, 2, 3])
    }
}
