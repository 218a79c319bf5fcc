import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP

/// The server's two hops of the check_url round trip: the device opens the check URL
/// (`open`), is sent through the operator's gateway, and comes back with the
/// operator's answer (`callback`), which the provider's verdict reader judges and Tacit
/// turns into a silent code. Every failure fails the silent step with its reason, so
/// the workflow moves on.
public struct SilentFlow: Sendable {
    let runner: WorkflowRunner
    let keys: SilentKeys
    let verdicts: any SilentVerdictReader

    private enum Opening: Sendable { case opened, replayed, inactive }

    /// `GET /v1/silent/checks/{token}`: marks the check used, then redirects to the gateway.
    public func open(_ request: HTTPRequest) async throws -> HTTPResponse {
        let check = try checkToken(request.pathParameters["token"])
        if check.expiresAt <= runner.clock.now() {
            try await fail(check, .expired, events: [SilentNotes.openedLate(provider(check))])
            throw APIProblem.checkURLExpired
        }
        let latch = try check.latch(with: keys.latchMAC)
        let outcome = try await runner.recordingTransition(check.verificationId) { machine -> (Opening, [EventDraft]) in
            guard machine.verification.isSilentStepActive(check.step) else { return (.inactive, []) }
            if machine.verification.codeStep == check.step {
                try machine.handle(.silentFailed(step: check.step, failure: .replayed))
                return (.replayed, [SilentNotes.openedAgain(provider(check))])
            }
            try machine.handle(.codeIssued(step: check.step, hash: latch))
            return (.opened, [SilentNotes.opened(provider(check))])
        }
        switch outcome?.result {
        case nil: throw APIProblem.checkURLInvalid
        case .inactive?: throw APIProblem.checkURLInactive
        case .replayed?: throw APIProblem.checkURLUsed
        case .opened?:
            var redirect = HTTPResponse.redirect(
                location: gatewayURL(check, state: request.pathParameters["token"] ?? ""))
            let cookie = try keys.binding.setCookie(check, value: keys.binding.issue(check), now: runner.clock.now(),
                                                    secure: keys.baseURL.hasPrefix("https:"))
            redirect.headers += [("Set-Cookie", cookie), ("Cache-Control", "no-store")]
            return redirect
        }
    }

    /// `GET /v1/silent/callback?…&state=…`: the provider's verdict, as its reader finds
    /// it in the query. A match yields `{"request_id", "code"}` for the device to submit.
    /// The flow's own bindings come first, whatever reader judges the provider's answer:
    /// the check named by `state` must be active and opened, and the request must carry
    /// the cookie of the device that opened it, before the reader is asked (so a stranger
    /// can't make a reader spend a single-use provider code); then the verdict must be
    /// the provider's, about that check's session. Each refusal changes nothing.
    func callback(_ request: HTTPRequest) async throws -> HTTPResponse {
        let check = try checkToken(request.query["state"])
        let ending: SilentEnding
        switch try await standing(check) {
        case .inactive: throw APIProblem.checkURLInactive
        case .unopened: throw APIProblem.operatorAnswerInvalid
        case .opened(let face): ending = runner.faces.rules(for: face).silentEnding
        }
        guard keys.binding.isPresent(in: request.header("cookie"), for: check) else {
            throw APIProblem.silentDeviceMismatch
        }
        let answer = callbackRequest(request, provider: check.provider)
        guard let verdict = await verdicts.verdict(for: answer), verdict.state == request.query["state"],
              verdict.session.map({ $0 == check.operatorSession }) ?? true else {
            throw APIProblem.operatorAnswerInvalid
        }
        let now = runner.clock.now()
        if verdict.expires.map({ $0 <= now }) == true || check.expiresAt <= now {
            try await fail(check, .expired, events: [SilentNotes.answerLate])
            throw APIProblem.checkURLExpired
        }
        let checked = [SilentNotes.verdict(verdict.result, provider: provider(check)),
                       SilentNotes.integrityChecked(provider(check))]
        switch verdict.result {
        case .match: return try await issueCode(check, ending: ending, events: checked)
        case .noMatch:
            try await fail(check, .rejected,
                           events: [SilentNotes.fetched, SilentNotes.cellularPath(true), SilentNotes.simMatch(false)]
                               + checked)
            throw APIProblem.simMismatch
        case .notCellular:
            try await fail(check, .deviceNotCellular,
                           events: [SilentNotes.fetched, SilentNotes.cellularPath(false)] + checked)
            throw APIProblem.deviceNotCellular
        case .replayed:
            try await fail(check, .replayed, events: [SilentNotes.operatorReplay] + checked)
            throw APIProblem.checkURLUsed
        case .expired:
            try await fail(check, .expired, events: [SilentNotes.answerLate] + checked)
            throw APIProblem.checkURLExpired
        case .wrongCode:
            // A callback carries the provider's answer, not a code Tacit submitted: no verdict.
            throw APIProblem.operatorAnswerInvalid
        }
    }

    /// The provider that issued `check`, as the timeline names it.
    private func provider(_ check: CheckToken) -> String { check.provider ?? runner.silent.providerName }

    /// The callback as a verdict reader sees it, with the number a check was issued for
    /// and the provider URL it leads to.
    private func callbackRequest(_ request: HTTPRequest, provider: String?) -> SilentCallback {
        let cipher = keys.checkCipher, store = runner.store, runner = self.runner
        return SilentCallback(query: request.query, phoneNumber: { state in
            guard let check = try? CheckToken(sealed: state, cipher: cipher) else { return nil }
            // A verification's number never changes: the kept state tells it as well as the row.
            return try? await store.recentVerification(id: check.verificationId)?.phoneNumber
        }, issuedURL: { state in
            (try? CheckToken(sealed: state, cipher: cipher))?.operatorURL
        }, provider: provider, note: { state, event in
            guard let check = try? CheckToken(sealed: state, cipher: cipher) else { return }
            _ = try? await runner.recordingTransition(check.verificationId) { turn -> (Void, [EventDraft]) in
                ((), turn.verification.isSilentStepActive(check.step) ? [event] : [])
            }
        })
    }

    /// Makes the silent code and keeps its keyed hash, only while the check's latch is
    /// in place: an answer arriving twice finds the code slot changed and is refused,
    /// leaving the code the first answer issued as the only one.
    private func issueCode(_ check: CheckToken, ending: SilentEnding,
                           events: [EventDraft]) async throws -> HTTPResponse {
        let code = try ending.code(for: check, keys: keys)
        let hash = try runner.secrets.codeHash(code, verificationId: check.verificationId, step: check.step)
        let latch = try check.latch(with: keys.latchMAC)
        let outcome = try await runner.recordingTransition(check.verificationId) { machine -> (Opening, [EventDraft]) in
            let v = machine.verification
            guard v.isSilentStepActive(check.step) else { return (.inactive, []) }
            guard v.codeStep == check.step, let stored = v.codeHash, ConstantTime.equals(stored, latch) else {
                return (.replayed, [])
            }
            try machine.handle(.codeIssued(step: check.step, hash: hash))
            let issued = ending.handsCodeToDevice ? SilentNotes.codeIssued : SilentNotes.codeHeld
            return (.opened, [SilentNotes.fetched, SilentNotes.cellularPath(true), SilentNotes.simMatch(true)]
                        + events + [issued])
        }
        switch outcome?.result {
        case nil: throw APIProblem.checkURLInvalid
        case .inactive?: throw APIProblem.checkURLInactive
        case .replayed?: throw APIProblem.checkURLUsed
        case .opened?:
            return ending.answer(verificationId: check.verificationId, code: code)
        }
    }

    /// Fails the check's step with `failure`, recording `events` only while the step is still active.
    private func fail(_ check: CheckToken, _ failure: SilentFailure, events: [EventDraft]) async throws {
        _ = try await runner.recordingTransition(check.verificationId) { machine -> (Void, [EventDraft]) in
            guard machine.verification.isSilentStepActive(check.step) else { return ((), []) }
            try machine.handle(.silentFailed(step: check.step, failure: failure))
            return ((), events)
        }
    }

    /// An opened check names the face that started its verification: how its round trip ends.
    private enum Standing { case inactive, unopened, opened(face: String) }

    /// Where the check's step stands, read before anything else is judged: an answer for
    /// a finished step says so, and one for a check URL never opened through Tacit
    /// belongs to no device's flow. Neither touches anything.
    ///
    /// The state the store kept from the open is enough when it says opened: the code is
    /// issued by a transition that checks the step and the latch again on the row. Any
    /// other answer is read from the row, since the open may have gone through another
    /// instance, whose write the kept state doesn't show.
    private func standing(_ check: CheckToken) async throws -> Standing {
        if let kept = try await runner.store.recentVerification(id: check.verificationId),
           case .opened(let face) = Self.standing(of: kept, check) {
            return .opened(face: face)
        }
        guard let v = try await runner.store.verification(id: check.verificationId) else {
            throw APIProblem.checkURLInvalid
        }
        return Self.standing(of: v, check)
    }

    private static func standing(of v: Verification, _ check: CheckToken) -> Standing {
        guard v.isSilentStepActive(check.step) else { return .inactive }
        return v.codeStep == check.step && v.codeHash != nil ? .opened(face: v.face) : .unopened
    }

    private func checkToken(_ text: String?) throws -> CheckToken {
        guard let text, let check = try CheckToken(sealed: text, cipher: keys.checkCipher) else {
            throw APIProblem.checkURLInvalid
        }
        return check
    }

    private func gatewayURL(_ check: CheckToken, state: String) -> String {
        QueryString.appending([("redirect_uri", keys.baseURL + CheckURLIssuer.callbackPath), ("state", state)],
                              to: check.operatorURL)
    }
}
