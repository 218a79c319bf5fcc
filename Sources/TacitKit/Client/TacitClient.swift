import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client for the Tacit HTTP API (v1), for an app's backend.
///
/// Every call throws `TacitError`: problem+json answers carry their fields;
/// transport failures are `network-error`.
public struct TacitClient: PhoneVerificationService {
    /// Where the server is, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// Sent as `Authorization: Bearer` on every call when set (optional in dev).
    public let apiKey: String?
    /// How long SSE reconnects wait, growing per consecutive failure.
    public var reconnectDelay: Duration = .milliseconds(500)
    /// Consecutive failed SSE connections after which the stream gives up.
    public var maxReconnectAttempts = 5
    let session: URLSession

    /// Creates a client. `session` is used for plain calls; streams use their own.
    public init(baseURL: URL, apiKey: String? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.session = session
    }

    /// `POST /v1/verifications`.
    public func start(_ request: StartVerificationRequest) async throws -> Verification {
        try await send("POST", "v1/verifications", body: request)
    }

    /// Starts a verification with an `Idempotency-Key`: a repeat returns the first response.
    public func start(_ request: StartVerificationRequest, idempotencyKey: String) async throws -> Verification {
        try await send("POST", "v1/verifications", body: request, headers: ["Idempotency-Key": idempotencyKey])
    }

    /// `GET /v1/verifications/{id}`.
    public func state(_ requestId: String) async throws -> Verification {
        try await send("GET", path(requestId))
    }

    /// `POST /v1/verifications/{id}/check`; throws `invalid-code` with `attemptsRemaining` on a wrong code.
    public func check(_ requestId: String, code: String) async throws -> CheckResult {
        try await send("POST", path(requestId, "check"), body: CodeBody(code: code))
    }

    /// `POST /v1/verifications/{id}/next`; throws `no-next-channel` (409) when none is left.
    public func next(_ requestId: String) async throws -> Verification {
        try await send("POST", path(requestId, "next"))
    }

    /// `DELETE /v1/verifications/{id}`.
    public func cancel(_ requestId: String) async throws {
        _ = try await perform(request("DELETE", path(requestId)))
    }

    /// `GET /v1/verifications/{id}/events?after=SEQ`: every event after `after`, following
    /// the server's pages (`next_after`) to the last.
    public func events(_ requestId: String, after: Int = 0) async throws -> [TimelineEvent] {
        var events: [TimelineEvent] = []
        var cursor: Int? = after
        while let after = cursor {
            let list: EventList = try await send("GET", path(requestId, "events"),
                                                 query: [URLQueryItem(name: "after", value: String(after))])
            events += list.events
            // A page that doesn't move the cursor forward would loop: stop at it.
            cursor = list.nextAfter.flatMap { $0 > after ? $0 : nil }
        }
        return events
    }

    /// `GET /v1/verifications/{id}/timeline`.
    public func timeline(_ requestId: String) async throws -> Timeline {
        try await send("GET", path(requestId, "timeline"))
    }

    /// The dev virtual handset's inbox for a `+990` number, oldest first (dev servers only).
    public func handsetInbox(_ phoneNumber: String) async throws -> [HandsetMessage] {
        let number = phoneNumber.replacingOccurrences(of: "+", with: "%2B")
        let inbox: HandsetInbox = try await send("GET", "v1/dev/handsets/\(number)/inbox")
        return inbox.messages
    }

    func path(_ requestId: String, _ tail: String? = nil) -> String {
        let id = requestId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? requestId
        return "v1/verifications/\(id)" + (tail.map { "/\($0)" } ?? "")
    }
}
