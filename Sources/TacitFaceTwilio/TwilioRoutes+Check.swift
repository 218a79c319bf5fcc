import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitServer
import TacitStore

extension TwilioRoutes {
    /// The verification a VerificationCheck is about, for the failed-check guard and the
    /// route alike: `VerificationSid` when the application owns it, else the application's
    /// pending verification of `To`, a number or an address. nil when there is none (the
    /// route then answers 404).
    func locateCheck(_ request: HTTPRequest) async throws -> String? {
        guard let application = ActingApplication.id, let form = TwilioForm(body: request.body) else { return nil }
        if let sid = form["VerificationSid"] {
            // Inside the gate's `StoreScope`, another application's sid reads as absent.
            guard TwilioFace.isVerificationSid(sid),
                  try await store.recentVerification(id: sid)?.face == TwilioFace.name else { return nil }
            return sid
        }
        guard let to = form["To"], let contact = contact(to),
              let pending = try await (store as? any ApplicationStore)?.pendingVerification(
                  contact: contact, application: application) else { return nil }
        // Only a verification this face started is checked here: another API's is not Twilio's to show.
        guard TwilioFace.isVerificationSid(pending),
              try await store.verification(id: pending)?.face == TwilioFace.name else { return nil }
        return pending
    }

    /// What a check's `To` is keyed by (`Verification.contact`): the number's E.164 form, or
    /// the normalized address an email verification was started for.
    private func contact(_ to: String) -> String? {
        if let number = try? phones.parse(to, allowVirtualRange: allowVirtualRange) { return number.e164 }
        return EmailAddress.problem(to) == nil ? EmailAddress.normalized(to) : nil
    }

    /// `POST …/VerificationCheck`: a right code answers `approved`, a wrong one `pending`,
    /// the fifth wrong one `max_attempts_reached`, and any check after it 60202, as Twilio
    /// does: five checks are answered, the sixth refused. Without `Code`, on a silent (SNA)
    /// verification, it asks whether the device's check over the cellular path matched.
    /// A verification that has ended is gone, as Twilio deletes it: 404, or 60202 when
    /// wrong codes ended it. `located` is what `locateCheck` found for the guard; a code
    /// goes straight into the check's transaction, which reads the state it changes, as
    /// `/v1`'s check does.
    func check(_ request: HTTPRequest, located: String?) async throws -> CheckAnswer {
        var result: CheckResult?
        let response = await Self.answering(request) {
            let account = try await account(request)
            guard let form = TwilioForm(body: request.body) else { throw TwilioError.malformedForm }
            let code = form["Code"]
            if let code, !(4...10).contains(code.count) { throw TwilioError.invalidParameter("Code") }
            guard form["VerificationSid"] != nil || form["To"] != nil else { throw TwilioError.invalidParameter("To") }
            guard let id = located, let checked = try await check(id, code: code) else {
                throw TwilioError.notFound(request.path)
            }
            result = checked.result
            switch checked.result {
            case .notPending:
                // Rare, so read only here: whether wrong codes ended it decides the error.
                guard let ended = try await store.verification(id: id) else { throw TwilioError.notFound(request.path) }
                throw Self.ended(ended, path: request.path)
            // The check that spends the last attempt is answered like any other, with the
            // verification as it ended (`max_attempts_reached`): Twilio refuses only the next.
            case .completed, .wrongCode, .tooManyAttempts: break
            }
            guard let after = checked.verification else { throw TwilioError.notFound(request.path) }
            return .json(bytes: TwilioVerificationBody(verification: after, account: account).checkBytes)
        }
        return CheckAnswer(response: response, result: result)
    }

    private static func ended(_ verification: Verification, path: String) -> TwilioError {
        verification.failedAttempts >= VerificationOptions.maxAttempts ? .maxCheckAttempts : .notFound(path)
    }

    /// A code goes to the runner as `/v1`'s does. No code asks about the silent step:
    /// once the network matched the SIM, the silent flow left a code only this server can
    /// derive in the step's slot (`SilentEnding.twilio`), and the check presents it.
    /// Before that the answer is 60519, pending, and counts as no attempt.
    private func check(
        _ id: String, code: String?
    ) async throws -> (result: CheckResult, verification: Verification?)? {
        if let code {
            return try await runner.checkReturningState(id, code: code) { v in
                [EventDraft("api:check", channel: v.activeChannel,
                            note: "A code was submitted for checking (Twilio VerificationCheck).",
                            data: ["code": .code(code)])]
            }
        }
        guard let verification = try await store.verification(id: id) else { return nil }
        guard verification.status == .pending else { return (.notPending(verification.status), nil) }
        guard verification.activeChannel == .silentAuth, let step = verification.currentStep else {
            throw TwilioError.invalidParameter("Code")
        }
        let held = try silentKeys.heldCode(verificationId: verification.id, step: step)
        let secrets = runner.secrets
        return try await runner.checkReturningState(verification.id, code: held) { v in
            guard v.currentStep == step, let stored = v.codeHash,
                  try secrets.codeMatches(stored, code: held, verificationId: v.id, step: step) else {
                throw TwilioError.snaPending
            }
            return [EventDraft("api:check", channel: .silentAuth,
                               note: "The app's backend asked whether the silent check matched "
                                   + "(Twilio VerificationCheck without a code); the network had confirmed the SIM.")]
        }
    }
}
