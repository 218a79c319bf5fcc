import TacitKit

/// Wraps the API client so the terminal sees what the flow driver sees: every
/// verification state it reads and every timeline event it streams, in order.
struct VerifyObservedService: PhoneVerificationService {
    let client: TacitClient
    let display: VerifyDisplay

    func start(_ request: StartVerificationRequest) async throws -> Verification {
        do {
            return display.saw(try await client.start(request))
        } catch {
            display.startFailed(error)
            throw error
        }
    }

    func state(_ requestId: String) async throws -> Verification {
        display.saw(try await client.state(requestId))
    }

    func check(_ requestId: String, code: String) async throws -> CheckResult {
        try await client.check(requestId, code: code)
    }

    func next(_ requestId: String) async throws -> Verification {
        display.saw(try await client.next(requestId))
    }

    func cancel(_ requestId: String) async throws {
        try await client.cancel(requestId)
    }

    func events(_ requestId: String, after: Int) async throws -> [TimelineEvent] {
        try await client.events(requestId, after: after)
    }

    func eventStream(_ requestId: String, after: Int) -> AsyncThrowingStream<TimelineEvent, any Error> {
        let upstream = client.eventStream(requestId, after: after)
        let display = display
        return AsyncThrowingStream { continuation in
            // Forwarding is tied to the consumer: dropping the stream drops the upstream.
            let forward = Task {
                do {
                    for try await event in upstream {
                        display.show(event)
                        continuation.yield(event)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in forward.cancel() }
        }
    }

    func timeline(_ requestId: String) async throws -> Timeline {
        try await client.timeline(requestId)
    }
}
