import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// Everything between the socket and the router that decides whether a request may
/// run: credentials, scopes, per-key and per-caller limits, the start guard and the
/// failed-check guard. Routes stay free of it, and routes added later are covered.
struct SecurityGate: Sendable {
    let authenticator: Authenticator
    let limiter: RateLimiter
    let configuration: SecurityConfiguration
    let store: any VerificationStore
    let clock: any TacitClock
    let dev: Bool
    let starts: StartGuard
    let checks: FailedCheckGuard
    let monitor: ConversionMonitor
    let metrics: SecurityMetrics

    func handle(_ request: HTTPRequest, next: @Sendable (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
        switch AccessRule(method: request.method, path: request.path, dev: dev) {
        case .open: return await next(request)
        case .hidden: return APIProblem.noSuchRoute.response
        case .api(let scope, let id, let device):
            do {
                let principal = try await authenticator.authenticate(request, scope: scope, id: id, device: device)
                try await admit(principal, request)
                return try await run(request, id: id, device: device, next: next)
            } catch let problem as APIProblem {
                return problem.status == 401 ? problem.challengeResponse : problem.response
            } catch {
                return APIProblem.unavailable.response
            }
        }
    }

    private func admit(_ principal: Principal, _ request: HTTPRequest) async throws {
        if let keyId = principal.keyId {
            do {
                try await limiter.spend("key", keyId, configuration.requestsPerKey, at: clock.now(),
                                        detail: "This API key made too many requests; retry later.")
            } catch {
                metrics.refused("key_limit", at: "request")
                throw error
            }
        }
        if request.method == "POST", request.path == "/v1/verifications" { try await starts.admit(request) }
    }

    /// Runs the route; code checks pass the failed-check guard first and report back after.
    private func run(_ request: HTTPRequest, id: String?, device: String?,
                     next: @Sendable (HTTPRequest) async -> HTTPResponse) async throws -> HTTPResponse {
        // The state kept from the verification's last change is enough here: the number
        // never changes, and a verification that has since finished is refused by the check.
        guard device == Scope.silentAuthSubmit, let id, let verification = try await store.recentVerification(id: id),
              verification.status == .pending else { return await next(request) }
        try await checks.admit(verification)
        let response = await next(request)
        await checks.record(response, for: verification)
        if response.status == 200, verification.activeChannel != .silentAuth { monitor.verified() }
        return response
    }
}
