import Foundation
import TacitHTTP

extension VirtualOperator {
    /// `GET /operator/authorize?login_hint=+990…`: network-based authentication, folded
    /// into one hop. Fetched over the cellular path, it answers a token bound to the
    /// SIM in the device; from any other network the token is not network-based, and
    /// Number Verification refuses it.
    func authorize(_ request: HTTPRequest) async -> HTTPResponse {
        await hop()
        let correlator = request.header("x-correlator").flatMap { CamaraRequest.isValidCorrelator($0) ? $0 : nil }
        guard let hint = request.query["login_hint"], CamaraRequest.isValidPhone(hint) else {
            return CamaraError.invalidArgument("login_hint must be the device's number in E.164 format.")
                .response(correlator: correlator)
        }
        guard OperatorScript.owns(hint) else { return CamaraError.identifierNotFound.response(correlator: correlator) }
        guard let key = try? await tokenKey() else { return CamaraError.unavailable.response(correlator: correlator) }
        let cellular = configuration.cellularRange.contains(request.remoteAddress)
        let token = AccessToken(simNumber: cellular ? OperatorScript.simNumber(for: hint) : hint, network: cellular,
                                expires: clock.now().addingTimeInterval(configuration.tokenLifetime))
        return CamaraJSON.response([
            "access_token": .string(token.encode(key: key)), "token_type": .string("Bearer"),
            "expires_in": .int(Int(configuration.tokenLifetime)),
        ], correlator: correlator)
    }
}
