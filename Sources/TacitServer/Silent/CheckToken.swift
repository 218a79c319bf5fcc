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
    /// The provider that issued the check (its route name), whose reader judges the
    /// verdict that comes back; nil in tokens sealed before it was kept.
    var provider: String?

    init(verificationId: String, step: Int, expiresAt: Date, operatorURL: String,
         nonce: [UInt8] = SecureRandom.bytes(16), provider: String? = nil) {
        self.verificationId = verificationId
        self.step = step
        self.expiresAt = expiresAt
        self.operatorURL = operatorURL
        self.nonce = nonce
        self.provider = provider
    }

    /// The sealed layout, read and written by hand (JSON coding cost more than the
    /// AES-GCM around it): version, step, expiry in milliseconds, the 16 random bytes,
    /// then the verification id and the operator URL, each after its 2-byte length, and
    /// (from version 2) the issuing provider's name the same way.
    private static let version: UInt8 = 2

    func seal(with cipher: AESGCM) throws(CryptoError) -> String {
        var bytes: [UInt8] = [Self.version]
        bytes.reserveCapacity(66 + verificationId.utf8.count + operatorURL.utf8.count + (provider?.utf8.count ?? 0))
        Self.append(UInt64(UInt32(clamping: step)), width: 4, to: &bytes)
        Self.append(UInt64(bitPattern: Int64((expiresAt.timeIntervalSince1970 * 1000).rounded())), width: 8, to: &bytes)
        bytes += nonce
        for text in [verificationId, operatorURL, provider ?? ""] {
            Self.append(UInt64(text.utf8.count), width: 2, to: &bytes)
            bytes += text.utf8
        }
        return Self.prefix + Base64.urlEncode(try cipher.seal(bytes))
    }

    /// nil when the token was not sealed by this server (forged, truncated, or another key);
    /// throws when the cipher itself failed, which is the server's fault, not the URL's.
    init?(sealed token: String, cipher: AESGCM) throws(CryptoError) {
        guard token.hasPrefix(Self.prefix), token.utf8.count < 4096,
              let sealed = Base64.urlDecode(String(token.dropFirst(Self.prefix.count))) else { return nil }
        let bytes: [UInt8]
        do { bytes = try cipher.open(sealed) } catch let error as CryptoError { throw error } catch { return nil }
        var reader = bytes[...]
        guard let version = reader.popFirst(), version == 1 || version == Self.version,
              let step = Self.read(&reader, width: 4), let millis = Self.read(&reader, width: 8),
              reader.count >= 16 else { return nil }
        let nonce = Array(reader.prefix(16))
        reader = reader.dropFirst(16)
        guard let id = Self.readText(&reader), let url = Self.readText(&reader) else { return nil }
        let provider = version == 1 ? "" : Self.readText(&reader)
        guard let provider, reader.isEmpty else { return nil }
        self.init(verificationId: id, step: Int(step),
                  expiresAt: Date(timeIntervalSince1970: Double(Int64(bitPattern: millis)) / 1000),
                  operatorURL: url, nonce: nonce, provider: provider.isEmpty ? nil : provider)
    }

    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for index in (0..<width).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func read(_ reader: inout ArraySlice<UInt8>, width: Int) -> UInt64? {
        guard reader.count >= width else { return nil }
        defer { reader = reader.dropFirst(width) }
        return reader.prefix(width).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func readText(_ reader: inout ArraySlice<UInt8>) -> String? {
        guard let length = read(&reader, width: 2), reader.count >= Int(length) else { return nil }
        defer { reader = reader.dropFirst(Int(length)) }
        return String(validating: reader.prefix(Int(length)), as: UTF8.self)
    }

    /// The operator session this check leads to.
    var operatorSession: String? { URL(string: operatorURL)?.lastPathComponent }

    /// What the step's code slot holds between the check URL's first opening and the
    /// operator's answer: a keyed hash of the random part. It marks the URL used, and
    /// no code anyone could submit hashes to it (another key, another message).
    func latch(with mac: HMAC.SHA256Key) throws(CryptoError) -> [UInt8] {
        try mac.authenticate(Array("latch:\(verificationId):\(step):".utf8) + nonce)
    }
}
