import Foundation
import TacitCrypto

/// A CAMARA access token the virtual operator hands out: stateless, signed, and bound
/// to the number of the SIM it was issued for. `network` says whether it came out of
/// network-based authentication (the device's cellular path), which Number
/// Verification requires.
struct AccessToken: Sendable, Equatable {
    static let prefix = "nt_"

    var simNumber: String
    var network: Bool
    var expires: Date

    func encode(key: [UInt8]) -> String {
        let payload = Array("\(simNumber)|\(network ? 1 : 0)|\(Int(expires.timeIntervalSince1970))".utf8)
        return Self.prefix + Base64.urlEncode(payload) + "." + Base64.urlEncode(HMAC.sha256(key: key, message: payload))
    }

    /// nil when the token is malformed, forged or expired.
    init?(_ token: String, key: [UInt8], now: Date) {
        guard token.hasPrefix(Self.prefix) else { return nil }
        let parts = token.dropFirst(Self.prefix.count).split(separator: ".")
        guard parts.count == 2, let payload = Base64.urlDecode(String(parts[0])),
              let mac = Base64.urlDecode(String(parts[1])),
              ConstantTime.equals(HMAC.sha256(key: key, message: payload), mac) else { return nil }
        let fields = String(decoding: payload, as: UTF8.self).split(separator: "|")
        guard fields.count == 3, let seconds = Int(fields[2]) else { return nil }
        self.init(simNumber: String(fields[0]), network: fields[1] == "1",
                  expires: Date(timeIntervalSince1970: TimeInterval(seconds)))
        guard expires > now else { return nil }
    }

    init(simNumber: String, network: Bool, expires: Date) {
        self.simNumber = simNumber
        self.network = network
        self.expires = expires
    }
}
