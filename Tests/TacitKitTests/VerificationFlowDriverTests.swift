import Testing
@testable import TacitKit

@Suite("VerificationFlowDriver")
struct VerificationFlowDriverTests {
    typealias State = VerificationFlow.State

    static func driver(_ service: FakeVerificationService, silentAuth: VerificationFlowDriver.SilentAuthRunner? = nil) -> VerificationFlowDriver {
        VerificationFlowDriver(service: service, pollInterval: .zero, maxPollFailures: 3, silentAuth: silentAuth)
    }

    @Test("follows the server's auto-advance over the event stream, re-reading state on step changes")
    func followsEvents() async {
        let service = FakeVerificationService(states: [.success(Fixtures.verification(active: 1)), .success(Fixtures.verification(active: 2))])
        for (seq, label) in ["silent_auth:started", "timer:fired", "sms:code_sent", "timer:fired", "verification:completed"].enumerated() {
            service.emit(Fixtures.event(seq + 1, label))
        }
        var states: [State] = []
        for await state in Self.driver(service).follow(Fixtures.verification(active: 0)) { states.append(state) }
        #expect(states == [.awaitingSilentAuth(requestId: "req-1"), .enteringSmsCode(requestId: "req-1"),
                           .enteringVoiceCode(requestId: "req-1"), .verified])
        #expect(service.callLog == ["eventStream", "state", "state"])
    }

    @Test("polls the state when the stream can't be held")
    func pollsAsFallback() async {
        let service = FakeVerificationService(
            states: [.success(Fixtures.verification(active: 1)), .failure(TacitError(type: "network-error", status: 0)),
                     .success(Fixtures.verification(active: 2)), .success(Fixtures.verification(status: .expired, active: nil))],
            streamFails: true)
        var states: [State] = []
        for await state in Self.driver(service).follow(Fixtures.verification(active: 0)) { states.append(state) }
        #expect(states == [.awaitingSilentAuth(requestId: "req-1"), .enteringSmsCode(requestId: "req-1"),
                           .enteringVoiceCode(requestId: "req-1"), .failed(reason: .expired)])
        #expect(service.callLog == ["eventStream", "state", "state", "state", "state"])
    }

    @Test("a server that stops answering ends the flow as unreachable")
    func unreachable() async {
        let service = FakeVerificationService(states: [.failure(TacitError(type: "network-error", status: 0))], streamFails: true)
        var states: [State] = []
        for await state in Self.driver(service).follow(Fixtures.verification(active: 1)) { states.append(state) }
        #expect(states == [.enteringSmsCode(requestId: "req-1"), .failed(reason: .unreachable)])
    }

    @Test("a refused start ends the flow with the problem type")
    func startRejected() async {
        let service = FakeVerificationService(start: .failure(TacitError(type: "invalid-phone-number", status: 422)))
        var states: [State] = []
        for await state in Self.driver(service).start(StartVerificationRequest(phoneNumber: "+1")) { states.append(state) }
        #expect(states == [.starting, .failed(reason: .startRejected(type: "invalid-phone-number"))])
    }

    @Test("a silent-auth client error asks the server for the next channel")
    func silentAuthFallsForward() async {
        let service = FakeVerificationService(states: [.success(Fixtures.verification(active: 0)), .success(Fixtures.verification(active: 1))])
        service.onNext = { $0.emit(Fixtures.event(1, "silent_auth:failed")) }
        let driver = Self.driver(service) { _ in .clientError(name: "device_not_cellular", message: "no cellular") }
        var states: [State] = []
        for await state in driver.start(StartVerificationRequest(phoneNumber: "+99012345671")) {
            states.append(state)
            if state == .enteringSmsCode(requestId: "req-1") { service.emit(Fixtures.event(2, "verification:completed")) }
        }
        #expect(states == [.starting, .awaitingSilentAuth(requestId: "req-1"), .enteringSmsCode(requestId: "req-1"), .verified])
        #expect(service.callLog.filter { $0 == "next" }.count == 1)
    }

    @Test("a submitted silent check waits for the server instead of skipping ahead")
    func silentAuthSubmitted() async {
        let service = FakeVerificationService()
        let driver = Self.driver(service) { _ in
            service.emit(Fixtures.event(1, "verification:completed"))
            return .submitted
        }
        var states: [State] = []
        for await state in driver.follow(Fixtures.verification(active: 0)) { states.append(state) }
        #expect(states == [.awaitingSilentAuth(requestId: "req-1"), .verified])
        #expect(!service.callLog.contains("next"))
    }
}
