import Foundation
import TacitCore
import TacitHTTP
import TacitKit
import TacitProviderKit

/// `POST /v1/dev/handsets/{number}/silent-check` (dev only): the web console's virtual
/// phone. The server plays the phone's modem: it runs the SDK's device flow against
/// the check URL from a cellular (`127.0.0.2`) or Wi-Fi (`127.0.0.1`) source address
/// and submits the code itself. The answer never carries the code, and the only URL
/// it fetches is a check URL this server issued for the request named.
struct DevSilentCheck: Sendable {
    /// Reads a verification by id.
    let verification: @Sendable (String) async throws -> TacitCore.Verification?
    /// This server's base URL, where the device flow submits the code.
    let baseURL: @Sendable () -> String
    /// The verification a check URL names, only when this server issued it.
    let issuedBy: @Sendable (String) -> String?

    private struct Body: Decodable {
        var requestId: String
        var checkUrl: String
        var clientToken: String
        var path: String?
        enum CodingKeys: String, CodingKey {
            case requestId = "request_id", checkUrl = "check_url", clientToken = "client_token", path
        }
    }

    func run(_ request: HTTPRequest) async throws -> HTTPResponse {
        let number = try HandsetMount.number(of: request)
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(request.body)) else {
            throw ProviderProblem.malformedJSON("Send {\"request_id\", \"check_url\", \"client_token\", "
                                                    + "\"path\": \"cellular\" | \"wifi\"}.")
        }
        let path = body.path ?? "cellular"
        guard ["cellular", "wifi"].contains(path), let checkURL = URL(string: body.checkUrl),
              let base = URL(string: baseURL()) else {
            throw ProviderProblem.invalidParameter("path", reason: "must be cellular or wifi, with an http check_url")
        }
        // Only this server's own check URL for the named request is fetched: anything
        // else would make the button a loopback port scanner that reports what it found.
        guard issuedBy(body.checkUrl) == body.requestId else {
            throw ProviderProblem.invalidParameter("check_url",
                                                   reason: "must be the check_url this server issued for request_id")
        }
        guard let verification = try await verification(body.requestId), verification.phoneNumber == number else {
            throw ProviderProblem.notFound
        }
        let modem = SocketCellularTransport(sourceAddress: path == "cellular" ? "127.0.0.2" : "127.0.0.1")
        let result = await SilentAuth.run(checkURL: checkURL, requestId: body.requestId, clientToken: body.clientToken,
                                          baseURL: base, transport: modem, apiTransport: SocketCellularTransport())
        return ProviderRoute.uncachedJSON(Self.describe(result))
    }

    static func describe(_ result: SilentAuthResult) -> [String: String] {
        switch result {
        case .submitted: return ["result": "submitted"]
        case .clientError(let name, let message): return ["result": "client_error", "name": name, "message": message]
        case .failed(let reason): return ["result": "failed", "reason": reason.rawValue]
        }
    }
}
