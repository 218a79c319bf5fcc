import Foundation
import TacitCore
import TacitHTTP
import TacitPhone
import TacitServer
import TacitStore

/// The Twilio Verify v2 face (docs/compatible-apis.md#twilio-verify-v2): Twilio's paths, form bodies,
/// resources and errors over the same engine as `/v1`. Starts pass the start guard and checks the
/// failed-check guard as `/v1`'s do, and every change goes through the `WorkflowRunner`,
/// so rate limits, the timeline, webhooks and the console see these verifications.
struct TwilioRoutes: Sendable {
    let context: FaceContext
    let ids: IDGenerator

    var runner: WorkflowRunner { context.runner }
    var store: any VerificationStore { context.store }
    var phones: PhoneNumberParser { context.phones }
    var allowVirtualRange: Bool { context.allowVirtualRange }
    var silentKeys: SilentKeys { context.silentKeys }

    static let openAPIPath = "/v2/twilio/openapi.json"

    func register(_ router: inout RouteTable) {
        let face = RouteSecurity.face(TwilioFace.name)
        router.add("POST", "/v2/Services/:service/Verifications", face, reading: readStart, starting: create)
        router.add("GET", "/v2/Services/:service/Verifications/:sid", face, throwing: fetch)
        router.add("POST", "/v2/Services/:service/Verifications/:sid", face, throwing: update)
        router.add("POST", "/v2/Services/:service/VerificationCheck", face, locating: locateCheck, checking: check)
        router.add("GET", Self.openAPIPath, .open) { _ in
            TwilioFace.document.map { .json(bytes: $0) } ?? TwilioError.notFound(Self.openAPIPath).response
        }
    }

    /// The form, parsed for the start guard: only its number or address matters there.
    func readStart(_ request: HTTPRequest) -> StartSubmission {
        StartSubmission(twilio: TwilioStart.read(request.body, phones: phones, allowVirtualRange: allowVirtualRange))
    }

    /// Starts a verification, or, while the application has one pending for the number (or,
    /// by email, the address), sends again on the channel named now (Twilio keeps one
    /// verification per `To`). Of two starts racing for a number, one creates and the other re-sends.
    func create(_ request: HTTPRequest, _ submission: StartSubmission) async throws -> HTTPResponse {
        await Self.answering(request) {
            let start = try TwilioStart.read(request.body, phones: phones, allowVirtualRange: allowVirtualRange).get()
            let account = try await account(request)
            if let pending = try await pendingVerification(start.contact, account) {
                return try await resend(try Self.own(pending), start, account)
            }
            do {
                return try await begin(start, account)
            } catch let error as StoreError where error == .concurrentVerification {
                guard let pending = try await pendingVerification(start.contact, account) else {
                    throw TwilioError.unavailable
                }
                return try await resend(try Self.own(pending), start, account)
            }
        }
    }

    private func begin(_ start: TwilioStart, _ account: TwilioAccount) async throws -> HTTPResponse {
        let options = try await options(for: start, application: account.applicationId)
        let id = ids.make()
        var number = "", contactData: (key: String, value: EventValue)
        switch start.recipient {
        case .number(let parsed): (number, contactData) = (parsed.e164, ("phone_number", .phone(parsed.e164)))
        case .address(let address): contactData = ("email", .text(EmailAddress.redacted(address)))
        }
        // The face hands out no client token (Twilio's devices hold none); the hash of one
        // nobody keeps fills the slot, so no token opens this verification's device routes.
        var draft = Verification(id: id, phoneNumber: number, options: options,
                                 clientTokenHash: try runner.secrets.tokenHash(ClientToken.make(for: id)),
                                 createdAt: runner.clock.now())
        draft.applicationId = account.applicationId
        draft.face = TwilioFace.name
        if case .number(let parsed) = start.recipient { draft.lineType = parsed.lineType.rawValue }
        let event = EventDraft("api:create",
                               note: "The app's backend asked Tacit to verify \(start.redactedTo) by "
                                   + "\(start.channel.channel.spokenName) through the Twilio Verify face "
                                   + "(POST /v2/Services/{ServiceSid}/Verifications).",
                               data: [contactData.key: contactData.value, "face": .text(TwilioFace.name),
                                      "channel": .text(start.channel.rawValue)])
        let outcome = try await runner.create(draft, events: [event], idempotency: nil)
        let body = TwilioVerificationBody(verification: outcome.verification, account: account,
                                          snaURL: outcome.checkURL)
        return .json(status: 201, bytes: body.bytes)
    }

    /// One more send on `start`'s channel, up to Twilio's five per verification.
    private func resend(_ id: String, _ start: TwilioStart, _ account: TwilioAccount) async throws -> HTTPResponse {
        let channel = start.channel.channel
        let event = EventDraft("api:resend", channel: channel,
                               note: "The app asked again for \(start.redactedTo), so Tacit sends a new code by "
                                   + "\(channel.spokenName) (Twilio Verify face).",
                               data: ["channel": .text(start.channel.rawValue)])
        let outcome = try await runner.transition(id, events: [event]) { machine in
            guard machine.verification.face == TwilioFace.name else { throw TwilioError.concurrentVerification }
            guard machine.verification.workflow.count < TwilioFace.maxSends else { throw TwilioError.maxSendAttempts }
            try machine.handle(.resend(on: channel))
        }
        guard let outcome else { throw TwilioError.unavailable }
        let body = TwilioVerificationBody(verification: outcome.verification, account: account,
                                          snaURL: outcome.checkURL)
        return .json(status: 201, bytes: body.bytes)
    }

    /// Twilio's defaults under the application's own settings: a code length and a brand
    /// it set, and a validity of 10 minutes unless it set a channel timeout.
    private func options(for start: TwilioStart, application: String) async throws -> VerificationOptions {
        var options = VerificationOptions(workflow: [start.channel.channel], channelTimeout: TwilioFace.defaultTimeout)
        if let locale = start.locale { options.locale = locale }
        options.smsAppHash = start.appHash
        if case .address(let address) = start.recipient { options.emailAddress = address }
        // Twilio's body has none of these fields: they belong to the Service, which here is
        // the application.
        return try await ApplicationDefaults.of(application, in: runner.applicationStore)?.fill(options) ?? options
    }

    /// The application's pending verification of `contact` (a number or an address),
    /// whichever API started it.
    func pendingVerification(_ contact: String, _ account: TwilioAccount) async throws -> Verification? {
        guard let id = try await (store as? any ApplicationStore)?.pendingVerification(
            contact: contact, application: account.applicationId) else { return nil }
        return try await store.verification(id: id)
    }

    /// The id of `pending` when this face started it. The face shows only its own
    /// verifications, each with a sid of its own form (docs/compatible-apis.md#one-face-one-id-form):
    /// one `/v1` or another face started holds the number, as Twilio's 60212 says.
    static func own(_ pending: Verification) throws(TwilioError) -> String {
        guard pending.face == TwilioFace.name, TwilioFace.isVerificationSid(pending.id) else {
            throw .concurrentVerification
        }
        return pending.id
    }
}
