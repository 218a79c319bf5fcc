import Foundation
import TacitCore

/// The project's access token (OAuth2 client credentials at `/oauth2/v1/token`), kept
/// until shortly before it expires so that each check costs one call, not two. Callers
/// that need a token while one is being fetched wait for that fetch instead of starting
/// their own; a failed fetch is not kept, so the next call tries again.
public actor TruIDTokens {
    /// The scopes the checks need: creating and completing SubscriberChecks.
    static let scope = "subscriber_check"
    /// How long before its expiry a token is replaced: a check begun on a token about to
    /// lapse would fail half-way.
    static let margin: TimeInterval = 60

    private struct Held {
        var token: String
        var refreshAt: Date
    }

    let settings: TruIDSettings
    let http: any OutboundHTTPClient
    let clock: any TacitClock
    private var held: Held?
    private var fetching: [CheckedContinuation<String?, Never>]?

    public init(settings: TruIDSettings, http: any OutboundHTTPClient, clock: any TacitClock) {
        self.settings = settings
        self.http = http
        self.clock = clock
    }

    /// A bearer token, or nil when tru.ID gave none (the check then counts as an outage).
    public func token() async -> String? {
        if let held, clock.now() < held.refreshAt { return held.token }
        if fetching != nil {
            return await withCheckedContinuation { fetching?.append($0) }
        }
        fetching = []
        let fetched = await fetch()
        held = fetched
        let waiting = fetching ?? []
        fetching = nil
        waiting.forEach { $0.resume(returning: fetched?.token) }
        return fetched?.token
    }

    /// Forgets the token, after tru.ID refused it (revoked, or expired early).
    public func discard() { held = nil }

    private func fetch() async -> Held? {
        guard let request = TruIDRequest.token(settings) else { return nil }
        let sent = clock.now()
        guard let response = try? await http.send(request), response.status == 200,
              let object = (try? JSONParser.parse(response.body))?.objectValue,
              let token = object["access_token"]?.stringValue, !token.isEmpty else { return nil }
        let lifetime = object["expires_in"]?.numberValue ?? 0
        // A token shorter-lived than the margin is used for half its life.
        let early = min(Self.margin, lifetime / 2)
        return Held(token: token, refreshAt: sent.addingTimeInterval(lifetime - early))
    }
}
