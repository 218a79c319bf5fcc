import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// Delivers the outbox: claims due messages, signs and POSTs them, and records each
/// attempt in the store and on the verification's timeline. Runs as one long-lived
/// task (`run`) until cancelled; rows survive restarts, so delivery is at-least-once.
final class WebhookDispatcher: Sendable {
    /// How often the outbox is looked at when nothing is due: rows another instance wrote
    /// ring the doorbell through the store's change feed, where the store has one.
    static let idlePoll: TimeInterval = 30
    static let batchSize = 16

    let store: any VerificationStore
    let clock: any TacitClock
    let settings: WebhookSettings
    let httpClient: any OutboundHTTPClient
    let random: @Sendable () -> Double
    let timeline: @Sendable (String, EventDraft) async -> Void
    private let endpoints: [String: WebhookEndpoint]
    /// How long a claimed message stays reserved for the attempt in flight: a little
    /// longer than one attempt may take, so a crash mid-attempt delays a retry only briefly.
    private var lease: TimeInterval { settings.timeout + 5 }
    private let targetGuard: WebhookTargetGuard
    private let wakeup: Wakeup
    let reports: AsyncStream<WebhookAttempt>.Continuation
    /// The faces served, whose callbacks to their applications go out here too.
    let faces: ServedFaces
    /// Every attempt, in order (the newest 256 are kept until read).
    let attempts: AsyncStream<WebhookAttempt>

    init(store: any VerificationStore, clock: any TacitClock, settings: WebhookSettings,
         httpClient: any OutboundHTTPClient, random: @escaping @Sendable () -> Double, wakeup: Wakeup = Wakeup(),
         faces: ServedFaces = ServedFaces(),
         timeline: @escaping @Sendable (String, EventDraft) async -> Void) {
        self.wakeup = wakeup
        self.faces = faces
        self.store = store
        self.clock = clock
        self.settings = settings
        self.httpClient = httpClient
        self.random = random
        self.timeline = timeline
        endpoints = Dictionary(settings.endpoints.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        targetGuard = WebhookTargetGuard(allowPrivate: settings.allowPrivateTargets)
        (attempts, reports) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Says that new rows were written, so the worker looks now rather than at its next wake-up.
    func nudge() { wakeup.signal() }

    func run() async {
        while !Task.isCancelled {
            await deliverDue()
            let now = clock.now()
            let idle = now.addingTimeInterval(Self.idlePoll)
            let due = ((try? await store.nextOutboxDue()) ?? nil).map { min($0, idle) } ?? idle
            await wakeup.wait(until: due, clock: clock)
        }
        reports.finish()
    }

    /// Delivers every message due now; returns how many attempts were made.
    @discardableResult
    func deliverDue() async -> Int {
        var count = 0
        while !Task.isCancelled {
            guard let batch = try? await store.claimOutbox(now: clock.now(), lease: lease, limit: Self.batchSize),
                  !batch.isEmpty else { break }
            await withTaskGroup(of: Void.self) { group in
                for message in batch { group.addTask { await self.deliver(message) } }
            }
            count += batch.count
        }
        return count
    }

    private func deliver(_ message: OutboxMessage) async {
        // Whatever a path below fails to record, no row outlives its retry schedule.
        if message.state == .pending, clock.now() >= settings.retry.giveUp(after: message.createdAt) {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
            reports.yield(WebhookAttempt(messageId: message.id, verificationId: message.verificationId,
                                         type: message.type, attempt: message.attempts, statusCode: nil,
                                         result: .failed(retryAt: nil)))
            return
        }
        if let face = faces.callbackOwner(of: message) {
            return await deliverFaceCallback(message, face: face)
        }
        // The store settles a disabled endpoint's messages as it claims them, whichever
        // instance saw the 410, so every instance stops delivering to it.
        guard let endpoint = endpoints[message.endpoint], message.state != .disabled else {
            // No longer configured, or disabled: nothing will ever take this message.
            if message.state != .disabled { try? await store.disableWebhookEndpoint(message.endpoint, at: clock.now()) }
            reports.yield(WebhookAttempt(messageId: message.id, verificationId: message.verificationId,
                                         type: message.type, attempt: message.attempts, statusCode: nil,
                                         result: .endpointDisabled))
            return
        }
        await attempt(message, to: URL(string: endpoint.url), endpoint: endpoint, disabling: endpoint.id,
                      headers: headers(message, endpoint))
    }

    /// One attempt at `message`: POSTed to `url` with `headers` when the target guard allows
    /// it (dead otherwise), settled in the store, recorded on the timeline and reported. A
    /// 410 disables `disabling`: the configured endpoint's id, or a face callback target's key.
    func attempt(_ message: OutboxMessage, to url: URL?, endpoint: WebhookEndpoint, disabling: String,
                 headers: @autoclosure () -> [(String, String)]) async {
        let attempt = message.attempts + 1
        var report = WebhookAttempt(messageId: message.id, verificationId: message.verificationId, type: message.type,
                                    attempt: attempt, statusCode: nil, result: .refused)
        if let url, let target = await pinned(url) {
            report.statusCode = await post(message.payload, to: target.url, headers: headers() + target.headers)
            report.result = await settle(message, disabling: disabling, attempt: attempt, status: report.statusCode)
        } else {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
        }
        // A refused start's webhook has no verification, so no timeline to record its attempts on.
        if !message.verificationId.isEmpty {
            await timeline(message.verificationId, report.draft(endpoint: endpoint.displayName))
        }
        reports.yield(report)
    }

    /// The receiver's status code, or nil when no HTTP answer came (refused, timed out, TLS).
    func post(_ body: [UInt8], to url: URL, headers: [(String, String)]) async -> Int? {
        let request = OutboundRequest(method: "POST", url: url, headers: headers, body: body, timeout: settings.timeout)
        return try? await httpClient.send(request).status
    }

    /// Records the attempt's outcome in the store and says what it was.
    func settle(_ message: OutboxMessage, disabling key: String, attempt: Int,
                status: Int?) async -> WebhookAttempt.Result {
        let now = clock.now()
        switch status {
        case .some(200..<300):
            try? await store.recordOutboxAttempt(id: message.id, outcome: .delivered, at: now)
            return .delivered
        case .some(410):
            // The store settles every pending row whose endpoint is `key`; a face callback's row
            // is keyed by its application, not by the target, so it is settled here itself.
            try? await store.disableWebhookEndpoint(key, at: now)
            if key != message.endpoint {
                try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: now)
            }
            return .endpointDisabled
        default:
            let retryAt = settings.retry.delay(afterAttempt: attempt, random: random())
                .map { now.addingTimeInterval($0) }
            try? await store.recordOutboxAttempt(id: message.id, outcome: retryAt.map { .retry(at: $0) } ?? .dead,
                                                 at: now)
            return .failed(retryAt: retryAt)
        }
    }

    /// The Standard Webhooks headers, with one signature per configured secret.
    func headers(_ message: OutboxMessage, _ endpoint: WebhookEndpoint) -> [(String, String)] {
        let timestamp = Int64(clock.now().timeIntervalSince1970)
        let signatures = endpoint.secrets.compactMap {
            try? StandardWebhooks.sign(secret: $0, id: message.id, timestamp: timestamp, body: message.payload)
        }
        return [("Content-Type", "application/json"), ("User-Agent", "Tacit-Webhooks/1"),
                ("webhook-id", message.id), ("webhook-timestamp", String(timestamp)),
                ("webhook-signature", signatures.joined(separator: " "))]
    }

    /// Where to send for `url`, pinned to the address the target guard checked; nil when the
    /// guard refuses it. Resolves off the cooperative pool: name resolution blocks.
    func pinned(_ url: URL) async -> WebhookTargetGuard.Target? {
        let targetGuard = self.targetGuard
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: targetGuard.target(for: url)) }
        }
    }
}
