import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// The timeline routes (docs/api.md#timeline-routes): a verification's events as JSON or as a live
/// Server-Sent Events stream, device events posted with the client token, and the export.
struct TimelineRoutes: Sendable {
    let runner: WorkflowRunner
    let store: any VerificationStore
    let secrets: ServerSecrets
    let hub: EventHub
    /// The device-event rate and cap, in front of every device event.
    let deviceEvents: DeviceEventGuard
    /// Page and export sizes.
    let limits: TimelineLimits
    /// The streams API keys hold open, ended when their key is revoked.
    let streams: OpenStreams
    /// Seconds between `: ping` comments on an idle stream, on the injected clock.
    var heartbeatInterval: TimeInterval = 15
    let frames = FrameCache()

    func register(_ router: inout RouteTable) {
        router.add("GET", "/v1/verifications/:id/events", .read, throwing: events)
        router.add("POST", "/v1/verifications/:id/events", .write(orClientToken: Scope.deviceEvents),
                   throwing: deviceEvent)
        router.add("GET", "/v1/verifications/:id/timeline", .read, throwing: timeline)
    }

    /// JSON by default, one page at a time (`limit`, `next_after`); an SSE stream when the
    /// client accepts `text/event-stream`.
    func events(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.verificationID()
        let after = try resumePoint(request)
        guard try await store.verification(id: id) != nil else { throw APIProblem.notFound }
        if request.header("accept")?.lowercased().contains("text/event-stream") == true {
            let streamer = EventStreamer(store: store, hub: hub, clock: runner.clock,
                                         heartbeatInterval: heartbeatInterval, frames: frames)
            let writer = streamer.stream(id, after: after)
            streams.hold(writer)
            return .eventStream(writer)
        }
        let page = try await EventPage.read(store, id: id, after: after, limit: try pageLimit(request))
        return .json(bytes: page.json, headers: [("Cache-Control", "no-store")])
    }

    /// `GET …/timeline`: the export, with the summary and per-stage durations, and every
    /// server-written event however many device events crowd the timeline.
    func timeline(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.verificationID()
        guard let verification = try await store.verification(id: id) else { throw APIProblem.notFound }
        let selection = try await ExportEvents.read(store, id: id, limit: limits.exportEvents)
        var export = TimelineExport(verification, events: selection.events, exportedAt: runner.clock.now())
        export.eventsLeftOut = selection.leftOut
        return .json(bytes: JSONText.encode(export), headers: [("Cache-Control", "no-store")])
    }

    /// `POST …/events`: a device's own observation, merged into the same sequence.
    /// It never changes the workflow, and the client token's life ends with its verification.
    /// A valid event then passes the device-event rate and cap (429 past either).
    func deviceEvent(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.verificationID()
        let token = try bearerToken(request)
        let verification = try await ClientTokenAuthority(store: store, secrets: secrets).authorize(token, id: id)
        try request.requireJSON()
        let input = try DeviceEventInput(body: request.body)
        try await deviceEvents.admit(id)
        let issued = IssuedSecrets(verification, clientToken: token, secrets: secrets)
        let draft = input.draft(channel: verification.activeChannel, issued: issued)
        let outcome: WorkflowRunner.Outcome<Void>?
        do {
            outcome = try await runner.transition(id, events: [draft]) { machine in
                // Checked again inside the transaction: the verification may have ended meanwhile.
                guard machine.verification.status == .pending else { throw APIProblem.clientTokenExpired }
            }
        }
        guard let outcome else { throw APIProblem.notFound }
        return .json(status: 201, bytes: JSONText.object(["seq": .number(Double(outcome.verification.lastSeq))]))
    }
}
