import Foundation
import Synchronization
import TacitCrypto

/// The authorization server's memory: the codes it issued, the access tokens it issued for
/// them and the client assertions it has seen. Every code, token and assertion is good once:
/// a code is redeemed once, a Number Verification token answers one call, and an assertion's
/// `jti` is not taken twice while it could still be valid.
final class OperatorGrants: Sendable {
    /// What an authorization code was issued for.
    struct Code: Sendable {
        var clientId: String
        var redirectURI: String
        var challenge: String
        /// The number of the SIM in the device that came over the cellular path.
        var simNumber: String
        var expires: Date
    }

    private struct State {
        var codes: [String: Code] = [:]
        var tokens: [String: AccessToken] = [:]
        var assertions: [String: Date] = [:]
    }

    private let state = Mutex(State())

    /// A fresh code for `code`, 128 random bits.
    func issue(_ code: Code, now: Date) -> String {
        let id = Base64.urlEncode(SecureRandom.bytes(16))
        state.withLock { state in
            state.codes = state.codes.filter { $0.value.expires > now }
            state.codes[id] = code
        }
        return id
    }

    /// Takes the code out, whatever comes of the redemption: a code is never tried twice.
    func redeem(_ id: String, now: Date) -> Code? {
        state.withLock { state in
            guard let code = state.codes.removeValue(forKey: id), code.expires > now else { return nil }
            return code
        }
    }

    /// A fresh access token for `token`.
    func issue(_ token: AccessToken, now: Date) -> String {
        let id = "nt_" + Base64.urlEncode(SecureRandom.bytes(24))
        state.withLock { state in
            state.tokens = state.tokens.filter { $0.value.expires > now }
            state.tokens[id] = token
        }
        return id
    }

    /// True while the token is issued, unspent and unexpired; spends nothing.
    func isLive(_ id: String, now: Date) -> Bool {
        state.withLock { $0.tokens[id].map { $0.expires > now } ?? false }
    }

    /// The live token `id`, left unspent: a call looks at it before it has an answer to give.
    func live(_ id: String, now: Date) -> AccessToken? {
        state.withLock { $0.tokens[id].flatMap { $0.expires > now ? $0 : nil } }
    }

    /// Spends the token: the first call with it finds it, every later one does not.
    func spend(_ id: String, now: Date) -> AccessToken? {
        state.withLock { state in
            guard let token = state.tokens.removeValue(forKey: id), token.expires > now else { return nil }
            return token
        }
    }

    /// Records an assertion's `jti` until `expires`; false when it was seen before.
    func firstUse(ofAssertion jti: String, expires: Date, now: Date) -> Bool {
        state.withLock { state in
            state.assertions = state.assertions.filter { $0.value > now }
            guard state.assertions[jti] == nil else { return false }
            state.assertions[jti] = expires
            return true
        }
    }
}
