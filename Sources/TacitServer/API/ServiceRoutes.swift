import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// Health, readiness, metrics, the OpenAPI document and the web console.
struct ServiceRoutes: Sendable {
    let store: any VerificationStore
    let metrics: Metrics
    let timers: TimerScheduler
    let hub: EventHub
    let clock: any TacitClock
    let assets: ConsoleAssets
    let ready: @Sendable () -> Bool

    func register(_ router: inout RouteTable) {
        router.add("GET", "/healthz", .open) { _ in .json(bytes: Array(#"{"status":"ok"}"#.utf8)) }
        router.add("GET", "/readyz", .open) { _ in
            ready() ? .json(bytes: Array(#"{"status":"ready"}"#.utf8))
                : APIProblem(status: 503, type: "not-ready", title: "Not ready",
                             detail: "The server is starting.").response
        }
        router.add("GET", "/metrics", .open) { _ in await metricsText() }
        router.add("GET", "/v1/openapi.json", .open) { _ in assets.response(for: "openapi.json") }
        router.add("GET", "/", .open) { _ in assets.response(for: "index.html") }
        router.add("GET", "/:file", .open) { request in assets.response(for: request.pathParameters["file"] ?? "") }
    }

    private func metricsText() async -> HTTPResponse {
        let pending = (try? await store.pendingCount()) ?? 0
        var text = metrics.render(pending: pending, timers: timers.count, subscribers: hub.subscriberCount)
        let now = clock.now()
        if let sends = try? await store.sendOutboxGauge(now: now) { text += sends.metricsText(now: now) }
        return .text(text, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
