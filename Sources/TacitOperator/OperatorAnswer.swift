import Foundation
import TacitCrypto

/// The gateway's signed verdict on one check, carried back to Tacit in the query of a
/// redirect (as an authorisation server's answer travels back to its client). The
/// signature binds the verdict to the operator session and to the caller's `state`,
/// so an answer can't be moved to another check, and `expires` keeps it short-lived.
public struct OperatorAnswer: Sendable, Equatable {
    public enum Result: String, Sendable, CaseIterable {
        /// Cellular path, and the SIM holds the number.
        case match
        /// Cellular path, but the SIM holds another number.
        case noMatch = "no_match"
        /// The device came over Wi-Fi or another non-cellular network.
        case notCellular = "not_cellular"
        /// The operator session was opened before.
        case replayed
        /// The operator session was opened after it expired.
        case expired
    }

    public var result: Result
    /// The operator's session id: the last path segment of the gateway URL it issued.
    public var session: String
    /// Opaque to the operator: what the caller put in the redirect, returned as it was.
    public var state: String
    public var expires: Date

    public init(result: Result, session: String, state: String, expires: Date) {
        self.result = result
        self.session = session
        self.state = state
        self.expires = expires
    }

    /// The query items to append to the caller's `redirect_uri`.
    public func queryItems(key: [UInt8]) -> [(name: String, value: String)] {
        [("result", result.rawValue), ("session", session), ("state", state),
         ("expires", String(Int(expires.timeIntervalSince1970))), ("sig", Base64.urlEncode(signature(key: key)))]
    }

    /// Reads and checks an answer from a callback's query: nil when a field is missing
    /// or the signature is wrong (expiry is the caller's to judge, against its clock).
    public init?(query: [String: String], key: [UInt8]) {
        guard let raw = query["result"], let result = Result(rawValue: raw), let session = query["session"],
              let state = query["state"], let seconds = query["expires"].flatMap(Int.init),
              let sig = query["sig"], let given = Base64.urlDecode(sig) else { return nil }
        self.init(result: result, session: session, state: state,
                  expires: Date(timeIntervalSince1970: TimeInterval(seconds)))
        guard ConstantTime.equals(signature(key: key), given) else { return nil }
    }

    func signature(key: [UInt8]) -> [UInt8] {
        let canonical = ["tacit-operator-answer/v1", result.rawValue, session, state,
                         String(Int(expires.timeIntervalSince1970))]
        return HMAC.sha256(key: key, message: Array(canonical.joined(separator: "\n").utf8))
    }
}
