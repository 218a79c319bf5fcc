import Foundation
import TacitCore

/// What a token endpoint answered (RFC 6749 §5, CIBA §11), reduced to what Tacit acts on.
enum CamaraTokenAnswer: Sendable, Equatable {
    /// An access token, and its lifetime in seconds when the server gave one.
    case token(String, expiresIn: Int?)
    /// CIBA: not yet; poll again after `interval` seconds (more after `slow_down`).
    case pending(slowDown: Bool)
    /// An OAuth error the server named (`invalid_grant`, `access_denied`, `expired_token`…).
    case refused(String)
    /// No usable answer: unreachable, a 5xx, a body that is not a token answer.
    case unavailable

    init(_ response: OutboundResponse?) {
        guard let response else { self = .unavailable; return }
        let body = CamaraWire.object(response)
        if response.status == 200, let token = body?["access_token"]?.stringValue, !token.isEmpty {
            self = .token(token, expiresIn: body?["expires_in"]?.numberValue.map { Int($0) })
            return
        }
        guard (400..<500).contains(response.status), let error = body?["error"]?.stringValue else {
            self = .unavailable
            return
        }
        switch error {
        case "authorization_pending": self = .pending(slowDown: false)
        case "slow_down": self = .pending(slowDown: true)
        default: self = .refused(error)
        }
    }
}
