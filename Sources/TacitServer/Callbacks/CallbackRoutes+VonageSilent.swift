import Foundation
import TacitCore
import TacitHTTP

extension CallbackRoutes {
    /// A Verify v2 silent-auth event at `/v1/callbacks/vonage`, signed as every Vonage
    /// callback is (HS256 with the signature secret, `payload_hash` of the body). It counts
    /// only for the flow that started it: the verification its `client_ref` names must have
    /// recorded this very Verify request for that step, or it is refused. A failure it
    /// reports ends the active silent step; any other status is only recorded.
    func vonageSilent(_ request: HTTPRequest, event: VonageSilentEvent, secret: String) async -> HTTPResponse {
        let now = runner.clock.now()
        do {
            let signed = try VonageCallback(authorization: request.header("authorization"), body: request.body, secret: secret,
                                            now: now, maxAge: settings.maxAge)
            guard let check = event.check, let reference = event.reference,
                  let verification = try await store.verification(id: reference.verificationId),
                  verification.silentCheck == check else { return APIProblem.callbackCheckMismatch.response }
            guard try await store.rememberCallback(key: signed.replayKey, expiresAt: signed.replayExpiresAt, now: now) else {
                throw CallbackRejection.replayed
            }
            try await apply(event, check: check, verificationId: reference.verificationId)
            return .empty(status: 204)
        } catch let rejection as CallbackRejection {
            return Self.problem(rejection).response
        } catch {
            return APIProblem.unavailable.response
        }
    }

    /// Records the event and applies its failure, only while its check is the active step's.
    private func apply(_ event: VonageSilentEvent, check: SilentCheckReference, verificationId: String) async throws {
        _ = try await runner.recordingTransition(verificationId) { machine -> (Void, [EventDraft]) in
            guard machine.activeSilentCheck == check else { return ((), []) }
            if let failure = event.failure { try machine.handle(.silentFailed(step: check.step, failure: failure)) }
            return ((), [event.event])
        }
    }
}
