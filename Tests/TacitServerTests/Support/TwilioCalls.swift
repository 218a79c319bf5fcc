import Foundation
import TacitServer
import TacitStore
import TacitTesting

/// The Twilio face's calls, as Twilio's SDKs make them: form bodies and Basic
/// `account_sid:auth_token`, on an application made on the test server.
struct TwilioCalls: Sendable {
    let client: TestClient
    let accountSid: String
    let authToken: String
    let serviceSid: String
    let application: Application
    /// The application's Tacit API key, for reading the same verifications through `/v1`.
    let apiKey: String

    /// A fresh application on `app` and a client holding its Twilio credentials.
    static func make(_ app: TestApplication, _ client: TestClient, name: String = "Shop") async throws -> TwilioCalls {
        guard let store = app.store as? any VerificationStore & KeyStore & ApplicationStore else { throw CallsError() }
        let made = try await ApplicationManager.open(store: store).create(name: name)
        let issued = made.credentials
        return TwilioCalls(client: client, accountSid: issued.twilioAccountSid, authToken: issued.twilioAuthToken,
                           serviceSid: issued.twilioServiceSid, application: made.application, apiKey: issued.apiKey)
    }

    /// The same calls with another credential or service sid.
    func with(accountSid: String? = nil, authToken: String? = nil, serviceSid: String? = nil) -> TwilioCalls {
        TwilioCalls(client: client, accountSid: accountSid ?? self.accountSid, authToken: authToken ?? self.authToken,
                    serviceSid: serviceSid ?? self.serviceSid, application: application, apiKey: apiKey)
    }

    var authorization: String { "Basic " + Data("\(accountSid):\(authToken)".utf8).base64EncodedString() }
    var service: String { "/v2/Services/\(serviceSid)" }

    /// `pairs` as a form body, escaped as the SDK escapes them.
    static func form(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    func post(_ path: String, _ pairs: [(String, String)]) async throws -> TestResponse {
        try await post(path, raw: Self.form(pairs))
    }

    func post(_ path: String, raw: String) async throws -> TestResponse {
        try await client.send("POST", path, body: Data(raw.utf8),
                              headers: ["Authorization": authorization, "Content-Type": "application/x-www-form-urlencoded"])
    }

    func get(_ path: String) async throws -> TestResponse {
        try await client.send("GET", path, headers: ["Authorization": authorization])
    }

    func start(_ to: String, channel: String = "sms") async throws -> TestResponse {
        try await post(service + "/Verifications", [("To", to), ("Channel", channel)])
    }

    func fetch(_ sid: String) async throws -> TestResponse { try await get(service + "/Verifications/\(sid)") }

    func update(_ sid: String, status: String) async throws -> TestResponse {
        try await post(service + "/Verifications/\(sid)", [("Status", status)])
    }

    func check(to: String? = nil, sid: String? = nil, code: String? = nil) async throws -> TestResponse {
        let pairs = [("To", to), ("VerificationSid", sid), ("Code", code)].compactMap { name, value in value.map { (name, $0) } }
        return try await post(service + "/VerificationCheck", pairs)
    }
}

private struct CallsError: Error {}
