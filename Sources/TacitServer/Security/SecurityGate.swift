import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// Decides whether a request may run, from its route's declaration (`RouteSecurity`):
/// credentials and scopes, the per-key limit, then the guards the route declared, fed
/// the typed values the route works with. The route table puts it around every route,
/// and around the router's own answer to a request no route takes.
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
    /// Counts each completed check of a number by prefix (docs/fraud.md#prefix-blocks).
    let ledger: PrefixLedger
    let metrics: SecurityMetrics
    /// The drop-in faces served, which check their own credentials.
    var faces = ServedFaces()

    /// Runs `route` when the request meets `security`. A refusal from the credential check
    /// or a guard inside `route` becomes its problem (a 401 with the Bearer challenge);
    /// any other error a 503 without internals.
    func admit(_ request: HTTPRequest, _ security: RouteSecurity,
               then route: () async throws -> HTTPResponse) async -> HTTPResponse {
        if security.isDevOnly, !dev { return APIProblem.noSuchRoute.response }
        if case .face(let name) = security.access { return await admitFace(name, request, then: route) }
        do {
            if case .key(let scope, let permission) = security.access {
                let principal = try await authenticator.authenticate(request, scope: scope,
                                                                     id: request.pathParameters["id"],
                                                                     device: permission)
                try await spendKeyLimit(principal)
                if let application = principal.applicationId {
                    return try await StoreScope.$application.withValue(application) {
                        try await requireVisible(request)
                        // A stream the route opens ends when this key is revoked (`OpenStreams`).
                        return try await OpenStreams.$keyId.withValue(principal.keyId) { try await route() }
                    }
                }
            }
            return try await route()
        } catch let problem as APIProblem {
            return problem.status == 401 ? problem.challengeResponse : problem.response
        } catch {
            return APIProblem.unavailable.response
        }
    }

    /// A request no route takes gets the router's own `answer`, behind what the routes at
    /// its path declare (`declared`, empty for a path no route has): absent if one is a
    /// hidden dev route or lies in the dev tools' namespace (whose routes
    /// are not even mounted without `--dev`), open if all are open, else behind a key like any `/v1` call.
    func unrouted(_ request: HTTPRequest, declared: [RouteSecurity], answer: HTTPResponse) async -> HTTPResponse {
        if !dev, declared.contains(where: \.isDevOnly) || request.path.hasPrefix(RouteSecurity.devNamespace) {
            return APIProblem.noSuchRoute.response
        }
        for case .face(let name) in declared.map(\.access) {
            return await admitFace(name, request) { faces[name]?.unrouted(request, answer: answer) ?? answer }
        }
        let open = declared.isEmpty ? request.pathSegments.first != "v1" : declared.allSatisfy { $0.access == .open }
        if open { return answer }
        return await admit(request, .unrouted(method: request.method)) { answer }
    }

    /// Runs the start `route` behind the start guard, on the start request parsed once for
    /// both; the guard counts the start once the route has created it.
    func start(_ request: HTTPRequest, _ submission: StartSubmission,
               then route: () async -> HTTPResponse) async throws -> HTTPResponse {
        try await starts.admit(request, submission, then: route)
    }

    /// Runs a code check behind the failed-check guard, whose count commits in the check's
    /// own transaction (`FailedCheckTally`), or is recorded after it from the check's
    /// `CheckResult` when the check committed none there; a completed code check counts toward the
    /// send-to-verify conversion.
    /// `id` is the verification the check is about (a face may name it in the body or by number).
    func check(_ request: HTTPRequest, id: String?, _ route: () async -> CheckAnswer) async throws -> HTTPResponse {
        // The state kept from the verification's last change is enough here: the number
        // never changes, and a verification that has since finished is refused by the check.
        // Inside the gate's `StoreScope`, another application's reads as absent.
        guard let id, let verification = try await store.recentVerification(id: id),
              verification.status == .pending else { return await route().response }
        try await checks.admit(verification)
        let tally = try checks.tally(for: verification)
        let answer = await FailedCheckTally.$current.withValue(tally) { await route() }
        if tally?.wasCommitted != true { await checks.record(answer.result, for: verification) }
        if answer.result == .completed, verification.activeChannel != .silentAuth { await monitor.verified() }
        if answer.result == .completed, !verification.phoneNumber.isEmpty {
            ledger.converted(verification.phoneNumber, application: verification.applicationId,
                             network: verification.reportedNetwork)
        }
        return answer.response
    }

    /// A route about one verification runs only when the caller's application sees it.
    /// Inside the gate's `StoreScope` another application's verification reads as absent,
    /// so it and an unknown id get the same 404 from the same read (of the row by id and
    /// application, finding nothing), before the route reads or parses anything: nothing of
    /// the verification, not even that it exists, shows. The caller's own verification is
    /// usually the state the store keeps from its last change, which the route then starts
    /// from too, so a check reads no row at all before its write.
    private func requireVisible(_ request: HTTPRequest) async throws {
        guard let id = request.pathParameters["id"] else { return }
        guard try await store.recentVerification(id: id) != nil else { throw APIProblem.notFound }
    }

    /// The key's own bucket, then its application's: each belongs to one application, so
    /// one application's traffic never spends another's.
    private func spendKeyLimit(_ principal: Principal) async throws {
        guard case .key(let key) = principal else { return }
        do {
            try await limiter.spend("key", key.id, configuration.requestsPerKey, at: clock.now(),
                                    detail: "This API key made too many requests; retry later.")
        } catch {
            metrics.refused("key_limit", at: "request")
            throw error
        }
        try await spendApplicationLimit(key.applicationId)
    }
}
