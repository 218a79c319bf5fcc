import TacitStore
import TacitFaceTwilio
import TacitFaceVonage
import TacitServer

/// The drop-in faces every test application serves, as the `tacit` executable serves them.
public enum TestFaces {
    public static let all: [any CompatibleFace] = [VonageFace(), TwilioFace()]
}

extension ApplicationManager {
    /// `open(store:faces:)` with the faces the test applications serve.
    public static func open(store: any VerificationStore & KeyStore & ApplicationStore) async throws
        -> ApplicationManager {
        try await open(store: store, faces: TestFaces.all)
    }

    /// Creates an application as `tacit apps create --vonage-public-key` does.
    public func create(name: String, vonagePublicKeyPEM: String?) async throws
        -> (application: Application, credentials: IssuedCredentials) {
        var change = ApplicationChange()
        change.faceSettings["vonage-public-key"] = vonagePublicKeyPEM
        return try await create(name: name, change)
    }
}

extension IssuedCredentials {
    /// The faces' credentials by the names the tests use.
    public var vonageApplicationId: String { self[VonageFace.name, "application_id"] ?? "" }
    public var vonageAPIKey: String { self[VonageFace.name, "api_key"] ?? "" }
    public var vonageAPISecret: String { self[VonageFace.name, "api_secret"] ?? "" }
    public var twilioAccountSid: String { self[TwilioFace.name, "account_sid"] ?? "" }
    public var twilioAuthToken: String { self[TwilioFace.name, "auth_token"] ?? "" }
    public var twilioServiceSid: String { self[TwilioFace.name, "service_sid"] ?? "" }
}
