import Foundation
import TacitCore
import TacitTesting
@testable import TacitProvidersTruID

/// tru.ID's answers as its API reference shows them, served by a recording client.
enum TruIDFixture {
    static let settings = TruIDSettings(clientId: "client-id-1", clientSecret: "client-secret-1", url: "http://127.0.0.1:9")
    static let checkId = "c69bc0e6-a429-11ea-bb37-0242ac130002"
    static let checkURL = "http://127.0.0.1:9/subscriber_check/v0.2/checks/\(checkId)/redirect"

    static func json(_ status: Int, _ text: String) -> OutboundResponse {
        OutboundResponse(status: status, headers: ["content-type": "application/json"], body: Array(text.utf8))
    }

    static func token(expiresIn: Int = 3600, value: String = "2YotnFZFEjr1zCsicMWpAA") -> OutboundResponse {
        json(200, #"{"access_token":"\#(value)","token_type":"bearer","expires_in":\#(expiresIn),"scope":"subscriber_check"}"#)
    }

    static let created = json(201, #"{"check_id":"\#(checkId)","status":"ACCEPTED","ttl":120,"_links":{"self":{"href":"x"},"check_url":{"href":"\#(checkURL)"}}}"#)

    static func completed(match: Bool, noSimChange: Bool) -> OutboundResponse {
        json(200, #"{"check_id":"\#(checkId)","status":"COMPLETED","match":\#(match),"no_sim_change":\#(noSimChange),"charge_amount":1}"#)
    }

    /// Answers the token endpoint with `token` and everything else with `api`.
    static func client(token: OutboundResponse = token(), api: @escaping @Sendable (OutboundRequest) -> OutboundResponse) -> RecordingHTTPClient {
        RecordingHTTPClient { request in
            request.url.path == "/oauth2/v1/token" ? token : api(request)
        }
    }

    static func request(_ number: String = "+447700900123") -> SilentCheckRequest {
        SilentCheckRequest(verificationId: "vf_1", step: 0, phoneNumber: number, expiresAt: Date(timeIntervalSince1970: 1_796_000_060))
    }
}
