import Foundation
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore

/// The Vonage Verify v2 face (docs/compatible-apis.md#vonage-verify-v2): Vonage's paths,
/// credentials, errors and callbacks over the same engine as `/v1`, plugged in through
/// `CompatibleFace`. Its records per application are Vonage's `application_id` and
/// `api_key` (identifiers), the `api_secret`'s hash, and the settings `tacit apps set`
/// changes: the callback URL, the callbacks' signature secret (sealed) and the public key
/// that checks the application's JWTs.
public struct VonageFace: CompatibleFace {
    /// What a verification started through the face records as its face.
    public static let name = "vonage"
    public var name: String { Self.name }

    public init() {}

    /// What Vonage documents: "The PIN code can be retried a maximum of three times", and a
    /// code checked against a silent-auth workflow gets "only one attempt", so its 410 comes
    /// where Vonage's does. A silent step hands the device 10 letters and digits, the form
    /// Vonage's check takes (4 to 10), about 59 bits for its one try.
    public var rules: FaceRules {
        FaceRules(attempts: AttemptLimits(codes: 3, silentCodes: 1), silentEnding: .alphanumerics(10))
    }

    /// The records' names.
    enum Record {
        static let applicationId = "application_id"
        static let apiKey = "api_key"
        static let apiSecret = "api_secret"
        static let callbackURL = "callback_url"
        static let signatureSecret = "signature_secret"
        static let publicKey = "public_key"
    }

    /// The hash purpose of the `api_secret`, which keeps it apart from other faces' secrets.
    static let secretPurpose = "vonage-api-secret"

    public var settings: [FaceSetting] {
        [
            FaceSetting(name: Record.callbackURL, option: "vonage-callback-url", kind: .setting) {
                Self.isHTTPURL($0) ? nil : "must be an http or https URL"
            },
            FaceSetting(name: Record.signatureSecret, option: "vonage-signature-secret", kind: .sealedSecret) {
                (32...256).contains($0.utf8.count) ? nil : "must be 32 to 256 bytes"
            },
            FaceSetting(name: Record.publicKey, option: "vonage-public-key", kind: .setting, valueFromFile: true) {
                Self.isPublicKeyPEM($0) ? nil : "must be a PEM PUBLIC KEY block"
            },
        ]
    }

    /// Fresh credentials in the shapes Vonage's SDKs expect: a UUID, 8 hex digits and 16
    /// letters and digits.
    public func issueCredentials() -> IssuedFaceCredentials {
        let applicationId = SecureRandom.uuid(), apiKey = Hex.encode(SecureRandom.bytes(4))
        let apiSecret = SecureRandom.alphanumerics(16)
        return IssuedFaceCredentials(
            stored: [
                FaceCredential(face: Self.name, name: Record.applicationId, kind: .identifier, text: applicationId),
                FaceCredential(face: Self.name, name: Record.apiKey, kind: .identifier, text: apiKey),
                FaceCredential(face: Self.name, name: Record.apiSecret, kind: .secretHash,
                               bytes: CredentialHash.of(apiSecret, purpose: Self.secretPurpose)),
            ],
            shown: [(Record.applicationId, applicationId), (Record.apiKey, apiKey), (Record.apiSecret, apiSecret)])
    }

    /// The Vonage callbacks a verification owes its application, as outbox rows beside the
    /// change they report, so they are delivered as durably as webhooks.
    public func callbacks(for effects: [WorkflowEffect], verification: Verification, at now: Date,
                          makeID: () -> String) -> [OutboxMessage] {
        var rows: [OutboxMessage] = []
        let endpoint = FaceCallbacks.endpoint(face: Self.name, application: verification.applicationId)
        for case .notifyWebhook(let event, let channel) in effects {
            for (type, body) in VonageCallbackPayload.bodies(for: event, channel: channel, verification: verification,
                                                             at: now) {
                rows.append(OutboxMessage(id: makeID(), endpoint: endpoint, verificationId: verification.id, type: type,
                                          payload: body, createdAt: now))
            }
        }
        return rows
    }

    public func serve(in context: FaceContext) -> any ServedFace {
        VonageServedFace(context: context)
    }

    static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Whether `pem` is one PEM `PUBLIC KEY` block with a base64 body.
    static func isPublicKeyPEM(_ pem: String) -> Bool {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return lines.count >= 3 && lines.first == "-----BEGIN PUBLIC KEY-----"
            && lines.last == "-----END PUBLIC KEY-----"
            && Data(base64Encoded: lines.dropFirst().dropLast().joined()) != nil
    }

    /// The face's OpenAPI 3 document, served at `/v2/verify/openapi.json`.
    static let document: [UInt8]? = Bundle.module.url(forResource: "vonage-openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }.map { Array($0) }
}
