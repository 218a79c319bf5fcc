import Foundation
import TacitCore

/// A CIBA token in poll mode (CIBA §7, §10; CAMARA ICM): `bc-authorize` for the number,
/// then the token endpoint, at once and again after each `interval` the server asks for
/// (5 seconds more after `slow_down`), never past the request's expiry or ``bound``.
/// A start waits on this, so the bound is short: a SIM-swap answer that comes later
/// than that is an operator that can't tell, as the port's nil says.
struct CamaraBackchannelFlow: Sendable {
    let tokens: CamaraTokenClient
    let clock: any TacitClock
    var bound: TimeInterval = 8

    func token(
        phoneNumber: String, scope: String, metadata: CamaraMetadata
    ) async -> (token: String, expiresIn: Int?)? {
        guard let endpoint = metadata.backchannelEndpoint,
              let request = await tokens.backchannel(phoneNumber: phoneNumber, scope: scope, at: endpoint) else {
            return nil
        }
        let deadline = clock.now().addingTimeInterval(min(bound, TimeInterval(request.expiresIn)))
        var interval = TimeInterval(request.interval)
        while true {
            switch await tokens.poll(request.authRequestId, at: metadata.tokenEndpoint) {
            case .token(let token, let expiresIn): return (token, expiresIn)
            case .refused, .unavailable: return nil
            case .pending(let slowDown):
                if slowDown { interval += 5 }
                let next = clock.now().addingTimeInterval(max(interval, 1))
                guard next < deadline else { return nil }
                do { try await clock.sleep(until: next) } catch { return nil }
            }
        }
    }
}
