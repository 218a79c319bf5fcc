import Foundation
import TacitCrypto

/// The secret part of a `check_url`: the verification and step it is bound to, its
/// expiry, the operator gateway it leads to, and 128 random bits, sealed with
/// AES-256-GCM under a server key. Tacit keeps no copy; the store holds only a keyed
/// hash of the random part (the step's latch), so the database never sees the URL.
struct CheckToken: Sendable, Equatable {
    static let prefix = "cu_"

    var verificationId: String
    var step: Int
    var expiresAt: Date
    /// The operator's gateway URL; its last path segment is the operator's session id.
    var operatorURL: String
    var nonce: [UInt8]

    init(verificationId: String, step: Int, expiresAt: Date, operatorURL: String, nonce: [UInt8] = SecureRandom.bytes(16)) {
        self.verificationId = verificationId
        self.step = step
        self.expiresAt = expiresAt
        self.operatorURL = operatorURL
        self.nonce = nonce
    }

    private struct Payload: Codable {
        var v: String
        var s: Int
        var e: Double
        var o: String
        var n: String
    }

    func seal(key: [UInt8]) -> String {
        let payload = Payload(v: verificationId, s: step, e: expiresAt.timeIntervalSince1970, o: operatorURL, n: Base64.urlEncode(nonce))
        let bytes = (try? Array(JSONEncoder().encode(payload))) ?? []
        return Self.prefix + Base64.urlEncode(AESGCM(key: key).seal(bytes))
    }

    /// nil when the token was not sealed by this server (forged, truncated, or another key).
    init?(sealed token: String, key: [UInt8]) {
        guard token.hasPrefix(Self.prefix), token.count < 4096, let sealed = Base64.urlDecode(String(token.dropFirst(Self.prefix.count))),
              let bytes = try? AESGCM(key: key).open(sealed),
              let payload = try? JSONDecoder().decode(Payload.self, from: Data(bytes)),
              let nonce = Base64.urlDecode(payload.n), nonce.count == 16 else { return nil }
        self.init(verificationId: payload.v, step: payload.s, expiresAt: Date(timeIntervalSince1970: payload.e),
                  operatorURL: payload.o, nonce: nonce)
    }

    /// The operator session this check leads to.
    var operatorSession: String? { URL(string: operatorURL)?.lastPathComponent }

    /// What the step's code slot holds between the check URL's first opening and the
    /// operator's answer: a keyed hash of the random part. It marks the URL used, and
    /// no code anyone could submit hashes to it (another key, another message).
    func latch(key: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: key, message: Array("latch:\(verificationId):\(step):".utf8) + nonce)
    }
}
