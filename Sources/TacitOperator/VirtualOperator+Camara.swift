import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP

/// CAMARA-shaped Number Verification and SIM Swap for the operator's numbers.
extension VirtualOperator {
    /// Runs a CAMARA handler: the hop's latency, then its answer or its CAMARA error,
    /// with the caller's `x-correlator` echoed either way.
    func camara(_ request: HTTPRequest, readsBody: Bool = true,
                _ body: (CamaraRequest) throws(CamaraError) -> [String: CamaraJSON.Value]) async -> HTTPResponse {
        await hop()
        let echoed = request.header("x-correlator").flatMap { CamaraRequest.isValidCorrelator($0) ? $0 : nil }
        do throws(CamaraError) {
            let parsed = try CamaraRequest(request, in: self, readsBody: readsBody)
            let answer = try body(parsed)
            // Spent here, once, with an answer: a second call with the same token finds nothing.
            if let token = parsed.token, grants.spend(token, now: clock.now()) == nil {
                throw CamaraError.unauthenticated
            }
            return CamaraJSON.response(answer, correlator: echoed)
        } catch {
            return error.response(correlator: echoed)
        }
    }

    /// `POST /camara/number-verification/v0/verify`: exactly one of `phoneNumber` and
    /// `hashedPhoneNumber` (SHA-256 hex of the E.164 number), against the SIM the
    /// network-based token was issued for.
    func verifyNumber(_ call: CamaraRequest) throws(CamaraError) -> [String: CamaraJSON.Value] {
        let sim = try networkSubject(call)
        switch (call.body.phoneNumber, call.body.hashedPhoneNumber) {
        case (let phone?, nil):
            return ["devicePhoneNumberVerified": .bool(phone == sim)]
        case (nil, let hashed?):
            guard hashed.count == 64, hashed.allSatisfy(\.isHexDigit) else {
                throw .invalidArgument("hashedPhoneNumber must be the SHA-256 of the E.164 number, in hexadecimal.")
            }
            return ["devicePhoneNumberVerified": .bool(hashed.lowercased() == Hex.encode(SHA256.hash(sim)))]
        default:
            throw .invalidArgument("Exactly one of phoneNumber and hashedPhoneNumber must be given.")
        }
    }

    /// `GET /camara/number-verification/v0/device-phone-number`.
    func devicePhoneNumber(_ call: CamaraRequest) throws(CamaraError) -> [String: CamaraJSON.Value] {
        ["devicePhoneNumber": .string(try networkSubject(call))]
    }

    /// `POST /camara/sim-swap/v0/check`: `maxAge` hours, 1–2400, default 240.
    func simSwapCheck(_ call: CamaraRequest) throws(CamaraError) -> [String: CamaraJSON.Value] {
        let maxAge = call.body.maxAge ?? 240
        guard (1...2400).contains(maxAge) else { throw .outOfRange("maxAge must be between 1 and 2400 hours.") }
        let number = try servedSubject(call)
        let changed = latestSimChange(number)
        return ["swapped": .bool(changed.map { clock.now().timeIntervalSince($0) <= TimeInterval(maxAge) * 3600 }
                                 ?? false)]
    }

    /// `POST /camara/sim-swap/v0/retrieve-date`: the latest SIM change, or null with
    /// the monitored period when there was none within it.
    func simSwapDate(_ call: CamaraRequest) throws(CamaraError) -> [String: CamaraJSON.Value] {
        let number = try servedSubject(call)
        guard let changed = latestSimChange(number) else {
            return ["latestSimChange": .null, "monitoredPeriod": .int(configuration.monitoredPeriodDays)]
        }
        return ["latestSimChange": .string(Timestamp.format(changed))]
    }

    /// Number Verification answers only a device that authenticated over the cellular network.
    private func networkSubject(_ call: CamaraRequest) throws(CamaraError) -> String {
        guard case .device(let token) = call.caller else { throw .permissionDenied }
        guard token.network else { throw .notNetworkAuthenticated }
        return token.simNumber
    }

    private func servedSubject(_ call: CamaraRequest) throws(CamaraError) -> String {
        let number = try call.subject()
        guard let script = OperatorScript.forNumber(number) else { throw .identifierNotFound }
        guard script != .noCoverage else { throw .serviceNotApplicable }
        return number
    }
}
