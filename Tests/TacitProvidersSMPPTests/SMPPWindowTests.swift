import Testing
@testable import TacitProvidersSMPP

/// The window's count itself (TACIT_SMPP_WINDOW, docs/providers.md): the session test sees it
/// through a loopback SMSC, where whether a third submit was written before the first answer
/// depends on when its task runs; here the third request either waits or takes a slot.
@Suite("SMPP window", .timeLimit(.minutes(1)))
struct SMPPWindowTests {
    @Test("a window of 2 gives out two slots; a third request waits, holding none, until one comes back")
    func thirdWaits() async {
        let window = SMPPWindow(size: 2)
        #expect(await window.acquire())
        #expect(await window.acquire())
        let third = Task { await window.acquire() }
        // Until the third request has run, it neither waits nor holds a slot: let it run.
        while window.waiting == 0 && window.inFlight == 2 { await Task.yield() }
        #expect(window.waiting == 1 && window.inFlight == 2)
        window.release()
        #expect(await third.value)
        #expect(window.waiting == 0 && window.inFlight == 2)
    }
}
