import Foundation
import Testing
import TacitCrypto

@Suite("Hex and base64 encodings")
struct EncodingTests {
    @Test("hex round-trips every byte value and reads either case")
    func hexRoundTrip() {
        let all = (0...255).map { UInt8($0) }
        #expect(Hex.decode(Hex.encode(all)) == all)
        #expect(Hex.encode([0xde, 0xad, 0xbe, 0xef]) == "deadbeef")
        #expect(Hex.decode("DEADbeef") == [0xde, 0xad, 0xbe, 0xef])
    }

    @Test("malformed hex decodes to nil", arguments: ["abc", "zz", "0g", " 0"])
    func hexMalformed(text: String) {
        #expect(Hex.decode(text) == nil)
    }

    @Test("standard base64 follows RFC 4648 examples", arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy"),
    ])
    func base64Examples(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test("base64url uses - and _ and drops padding, and decodes with or without it")
    func base64url() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xfe]
        #expect(Base64.encode(bytes) == "+//+")
        #expect(Base64.urlEncode(bytes) == "-__-")
        #expect(Base64.urlEncode([0x66]) == "Zg")
        #expect(Base64.urlDecode("Zg") == [0x66])
        #expect(Base64.urlDecode("Zg==") == [0x66])
        #expect(Base64.urlDecode("-__-") == bytes)
    }

    @Test("malformed base64url decodes to nil", arguments: ["+//+", "Z", "Zm9v!"])
    func base64urlMalformed(text: String) {
        #expect(Base64.urlDecode(text) == nil)
    }

    @Test("base64 agrees with Foundation's encoder for every length up to 40 bytes")
    func base64MatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let reference = Data(bytes).base64EncodedString()
            #expect(Base64.encode(bytes) == reference)
            #expect(Base64.decode(reference) == bytes)
            let url = Base64.urlEncode(bytes)
            #expect(!url.contains("=") && !url.contains("+") && !url.contains("/"))
            #expect(Base64.urlDecode(url) == bytes)
        }
    }

    @Test("malformed standard base64 decodes to nil", arguments: ["Zg", "Zg=", "Zm9v!A==", "-__-", "Z===", "Zh=="])
    func base64Malformed(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
