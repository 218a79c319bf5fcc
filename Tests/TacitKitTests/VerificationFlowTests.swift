import Testing
@testable import TacitKit

@Suite("VerificationFlow")
struct VerificationFlowTests {
    typealias State = VerificationFlow.State

    @Test("a new flow is idle and begin shows starting")
    func idleAndStarting() {
        var flow = VerificationFlow()
        #expect(flow.state == .idle)
        flow.begin()
        #expect(flow.state == .starting)
    }

    @Test("the active step's channel picks the screen", arguments: [
        (Channel.silentAuth, State.awaitingSilentAuth(requestId: "req-1")),
        (.sms, .enteringSmsCode(requestId: "req-1")),
        (.voice, .enteringVoiceCode(requestId: "req-1")),
        (.whatsapp, .enteringWhatsAppCode(requestId: "req-1")),
    ])
    func pendingScreens(channel: Channel, expected: State) {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(active: 0, channels: [channel]))
        #expect(flow.state == expected)
    }

    @Test("a final verification status picks the final screen", arguments: [
        (VerificationStatus.completed, State.verified),
        (.failed, .failed(reason: .verificationFailed)),
        (.expired, .failed(reason: .expired)),
        (.cancelled, .failed(reason: .cancelled)),
    ])
    func finalScreens(status: VerificationStatus, expected: State) {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(status: status, active: nil))
        #expect(flow.state == expected)
        #expect(flow.state.isFinal)
    }

    @Test("the screen follows the server's auto-advance and never steps back")
    func forwardOnly() {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(active: 0))
        flow.apply(Fixtures.verification(active: 2))
        #expect(flow.state == .enteringVoiceCode(requestId: "req-1"))
        flow.apply(Fixtures.verification(active: 1))
        #expect(flow.state == .enteringVoiceCode(requestId: "req-1"))
    }

    @Test("a final screen sticks for its request; a new request starts over")
    func finalSticks() {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(status: .completed, active: nil))
        flow.apply(Fixtures.verification(active: 1))
        #expect(flow.state == .verified)
        flow.apply(Fixtures.verification("req-2", active: 1))
        #expect(flow.state == .enteringSmsCode(requestId: "req-2"))
    }

    @Test("verification events end the flow without a state read", arguments: [
        ("verification:completed", State.verified),
        ("verification:failed", .failed(reason: .verificationFailed)),
        ("verification:expired", .failed(reason: .expired)),
        ("verification:cancelled", .failed(reason: .cancelled)),
    ])
    func finalEvents(label: String, expected: State) {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(active: 1))
        #expect(flow.apply(event: Fixtures.event(5, label)) == false)
        #expect(flow.state == expected)
    }

    @Test("a channel's started event moves the screen forward")
    func startedEvents() {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(active: 0))
        #expect(flow.apply(event: Fixtures.event(3, "voice:started")) == false)
        #expect(flow.state == .enteringVoiceCode(requestId: "req-1"))
        #expect(flow.apply(event: Fixtures.event(4, "sms:started")) == true)
        #expect(flow.state == .enteringVoiceCode(requestId: "req-1"))
    }

    @Test("step-ending events ask for a state read", arguments: [
        "silent_auth:failed", "silent_auth:rejected", "sms:expired", "timer:fired", "sms:completed",
    ])
    func stepChanges(label: String) {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(active: 0))
        #expect(flow.apply(event: Fixtures.event(2, label)) == true)
        #expect(flow.state == .awaitingSilentAuth(requestId: "req-1"))
    }

    @Test("informational and other requests' events change nothing")
    func ignored() {
        var flow = VerificationFlow()
        flow.apply(Fixtures.verification(active: 1))
        #expect(flow.apply(event: Fixtures.event(2, "sms:code_sent")) == false)
        #expect(flow.apply(event: Fixtures.event(3, "device:code_submitted")) == false)
        #expect(flow.apply(event: Fixtures.event(4, "verification:completed", "req-9")) == false)
        #expect(flow.state == .enteringSmsCode(requestId: "req-1"))
    }

    @Test("a local failure ends a running flow but not a finished one")
    func localFailure() {
        var flow = VerificationFlow()
        flow.begin()
        flow.fail(.startRejected(type: "invalid-phone-number"))
        #expect(flow.state == .failed(reason: .startRejected(type: "invalid-phone-number")))
        flow.fail(.unreachable)
        #expect(flow.state == .failed(reason: .startRejected(type: "invalid-phone-number")))
    }
}
