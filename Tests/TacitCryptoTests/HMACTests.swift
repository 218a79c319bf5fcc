import Testing
import TacitCrypto

@Suite("HMAC")
struct HMACTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let message: [UInt8]
        let expected: String
        var testDescription: String { name }
    }

    static let rfc4231: [Vector] = [
        Vector(name: "case 1", key: .init(repeating: 0x0b, count: 20), message: Array("Hi There".utf8),
               expected: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(name: "case 2", key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
               expected: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(name: "case 3", key: .init(repeating: 0xaa, count: 20), message: .init(repeating: 0xdd, count: 50),
               expected: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(name: "case 4", key: Array(1...25), message: .init(repeating: 0xcd, count: 50),
               expected: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(name: "case 6", key: .init(repeating: 0xaa, count: 131),
               message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
               expected: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(name: "case 7", key: .init(repeating: 0xaa, count: 131),
               message: Array(("This is a test using a larger than block-size key and a larger than block-size data."
                   + " The key needs to be hashed before being used by the HMAC algorithm.").utf8),
               expected: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("HMAC-SHA256 matches the RFC 4231 test vectors", arguments: rfc4231)
    func sha256Vectors(vector: Vector) {
        #expect(Hex.encode(HMAC.sha256(key: vector.key, message: vector.message)) == vector.expected)
    }

    @Test("a key set up once gives the RFC 4231 values, used again and from many tasks at once", arguments: rfc4231)
    func preparedKeyVectors(vector: Vector) async throws {
        let key = HMAC.SHA256Key(vector.key)
        #expect(Hex.encode(try key.authenticate(vector.message)) == vector.expected)
        #expect(Hex.encode(try key.authenticate(vector.message)) == vector.expected)
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<16 { group.addTask { (try? key.authenticate(vector.message)).map(Hex.encode) ?? "failed" } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(results == [vector.expected])
    }

    @Test("a prepared empty key matches the one-shot MAC of the empty key")
    func preparedEmptyKey() throws {
        #expect(try HMAC.SHA256Key([]).authenticate([]) == HMAC.sha256(key: [], message: []))
    }

    @Test("HMAC-SHA1 matches the well-known 'quick brown fox' value")
    func sha1Vector() {
        let mac = HMAC.sha1(key: Array("key".utf8), message: Array("The quick brown fox jumps over the lazy dog".utf8))
        #expect(Hex.encode(mac) == "de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9")
        #expect(Base64.encode(mac) == "3nybhbi3iqa8ino29wqQcBydtNk=")
    }

    @Test("an empty key and an empty message still give a full-length MAC")
    func emptyInputs() {
        let mac = HMAC.sha256(key: [], message: [])
        #expect(Hex.encode(mac) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test("a different key gives a different MAC")
    func keyMatters() {
        let message = Array("payload".utf8)
        #expect(HMAC.sha256(key: [1], message: message) != HMAC.sha256(key: [2], message: message))
    }
}
