import Foundation
@testable import TacitKit

/// A scripted `PhoneVerificationService`: states come from a list, events are
/// pushed by the test (or by `next`), and every call is counted.
final class FakeVerificationService: PhoneVerificationService, @unchecked Sendable {
    // Safe to share: mutable fields are only touched under `lock`.
    private let lock = NSLock()
    private var states: [Result<Verification, TacitError>]
    private var calls: [String] = []
    private let startResult: Result<Verification, TacitError>
    private let streamFails: Bool
    private let events: AsyncThrowingStream<TimelineEvent, any Error>
    private let sink: AsyncThrowingStream<TimelineEvent, any Error>.Continuation
    /// What `next` does besides counting: push events, change states.
    var onNext: (@Sendable (FakeVerificationService) -> Void)?

    init(start: Result<Verification, TacitError> = .success(Fixtures.verification()),
         states: [Result<Verification, TacitError>] = [], streamFails: Bool = false) {
        self.startResult = start
        self.states = states
        self.streamFails = streamFails
        (events, sink) = AsyncThrowingStream.makeStream(of: TimelineEvent.self)
    }

    var callLog: [String] { lock.withLock { calls } }

    func emit(_ event: TimelineEvent) { sink.yield(event) }

    func setStates(_ new: [Result<Verification, TacitError>]) { lock.withLock { states = new } }

    private func record(_ call: String) { lock.withLock { calls.append(call) } }

    func start(_ request: StartVerificationRequest) async throws -> Verification {
        record("start")
        return try startResult.get()
    }

    func state(_ requestId: String) async throws -> Verification {
        record("state")
        let next = lock.withLock { states.count > 1 ? states.removeFirst() : states.first }
        guard let next else { throw TacitError(type: "not-found", status: 404) }
        return try next.get()
    }

    func next(_ requestId: String) async throws -> Verification {
        record("next")
        onNext?(self)
        return Fixtures.verification(active: 1)
    }

    func eventStream(_ requestId: String, after: Int) -> AsyncThrowingStream<TimelineEvent, any Error> {
        record("eventStream")
        guard streamFails else { return events }
        return AsyncThrowingStream { $0.finish(throwing: TacitError(type: "network-error", status: 0)) }
    }

    func check(_ requestId: String, code: String) async throws -> CheckResult { CheckResult(requestId: requestId, status: .completed) }
    func cancel(_ requestId: String) async throws {}
    func events(_ requestId: String, after: Int) async throws -> [TimelineEvent] { [] }
    func timeline(_ requestId: String) async throws -> Timeline { throw TacitError(type: "not-found", status: 404) }
}
