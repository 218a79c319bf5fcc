import Foundation
import Testing
@testable import TacitOperator

@Suite("Operator gateway sessions")
struct GatewaySessionsTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a session is claimed once; again it is a replay, late it is expired, unknown ids are unknown")
    func claims() {
        let sessions = GatewaySessions()
        let id = sessions.open(number: "+99012345670", expiresAt: start + 60, now: start)
        #expect(sessions.claim(id, now: start + 1) == .fresh(number: "+99012345670"))
        #expect(sessions.claim(id, now: start + 2) == .replayed)
        let late = sessions.open(number: "+99012345671", expiresAt: start + 60, now: start)
        #expect(sessions.claim(late, now: start + 61) == .expired)
        #expect(sessions.claim("nope", now: start) == .unknown)
    }

    @Test("expired sessions are swept on insert; live ones stay, and the next sweep waits until the map doubles")
    func sweeping() {
        let sessions = GatewaySessions()
        let first = GatewaySessions.firstSweep
        for _ in 0..<first { _ = sessions.open(number: "+99012345670", expiresAt: start + 10, now: start) }
        #expect(sessions.count == first)
        // All expired: the next insert sweeps them.
        _ = sessions.open(number: "+99012345670", expiresAt: start + 1000, now: start + 20)
        #expect(sessions.count == 1)

        // Live sessions are never swept.
        for _ in 1..<(first + 500) { _ = sessions.open(number: "+99012345670", expiresAt: start + 1000, now: start + 20) }
        #expect(sessions.count == first + 500)
        // That sweep (at the first threshold) kept every live session, so the next one waits
        // for twice as many: entries already expired when added stay until it comes.
        for _ in 0..<(first - 500) { _ = sessions.open(number: "+99012345670", expiresAt: start + 30, now: start + 35) }
        #expect(sessions.count == 2 * first)
        let kept = sessions.open(number: "+99012345670", expiresAt: start + 1000, now: start + 40)
        #expect(sessions.count == first + 501)
        #expect(sessions.claim(kept, now: start + 41) == .fresh(number: "+99012345670"))
    }
}
