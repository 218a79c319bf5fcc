import Foundation
import TacitCore
import TacitCrypto
import TacitTesting
@testable import TacitProvidersVonage

/// Verify v2's answers as its API reference and the official SDK's fixtures show them,
/// and an adapter over a recording client.
enum VonageVerifyFixture {
    static let applicationId = "0b3e6a4f-5c2d-4e1f-9a8b-7c6d5e4f3a2b"
    static let requestId = "c11236f4-00bf-4b89-84ba-88b25df97315"
    static let checkURL = "http://127.0.0.1:9/v2/verify/\(requestId)/silent-auth/redirect"
    static let now = Date(timeIntervalSince1970: 1_796_111_398)

    static func json(_ status: Int, _ text: String) -> OutboundResponse {
        OutboundResponse(status: status, headers: ["content-type": "application/json"], body: Array(text.utf8))
    }

    static func problem(_ status: Int, _ title: String) -> OutboundResponse {
        json(status, #"{"type":"https://developer.vonage.com/en/api-errors","title":"\#(title)","detail":"d","instance":"i"}"#)
    }

    static let started = json(202, #"{"request_id":"\#(requestId)","check_url":"\#(checkURL)"}"#)
    static let completed = json(200, #"{"request_id":"\#(requestId)","status":"completed"}"#)

    static func adapter(_ client: RecordingHTTPClient) async throws -> (VonageSilentAuth, RSAPublicKey) {
        let pair = try await OpenSSLKeys.shared()
        let settings = VonageVerifySettings(applicationId: applicationId, privateKey: try RSAPrivateKey(pem: pair.privatePEM),
                                            apiURL: "http://127.0.0.1:9/")
        return (VonageSilentAuth(settings: settings, http: client, clock: ManualClock(start: now)), try RSAPublicKey(pem: pair.publicPEM))
    }

    static func request(_ number: String = "+447700900123") -> SilentCheckRequest {
        SilentCheckRequest(verificationId: "vf_0190abcdef12-Ab_Cd3xYz9", step: 0, phoneNumber: number,
                           expiresAt: now.addingTimeInterval(60))
    }
}
