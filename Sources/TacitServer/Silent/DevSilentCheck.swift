import Foundation
import TacitCore
import TacitHTTP
import TacitKit
import TacitStore

/// `POST /v1/dev/handsets/{number}/silent-check` (dev only): the web console's virtual
/// phone. The server plays the phone's modem: it runs the SDK's device flow against
/// the check URL from a cellular (`127.0.0.2`) or Wi-Fi (`127.0.0.1`) source address
/// and submits the code itself. The answer never carries the code.
struct DevSilentCheck: Sendable {
    let store: any VerificationStore
    let keys: SilentKeys

    private struct Body: Decodable {
        var requestId: String
        var checkUrl: String
        var clientToken: String
        var path: String?
        enum CodingKeys: String, CodingKey { case requestId = "request_id", checkUrl = "check_url", clientToken = "client_token", path }
    }

    func run(_ request: HTTPRequest) async throws -> HTTPResponse {
        let number = request.pathParameters["number"] ?? ""
        guard number.hasPrefix("+"), number.dropFirst().allSatisfy(\.isNumber), (8...16).contains(number.count) else {
            throw APIProblem.invalidPhoneNumber("The handset number must be in E.164 form, like +99012345670.")
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(request.body)) else {
            throw APIProblem.malformedJSON("Send {\"request_id\", \"check_url\", \"client_token\", \"path\": \"cellular\" | \"wifi\"}.")
        }
        let path = body.path ?? "cellular"
        guard ["cellular", "wifi"].contains(path), let checkURL = URL(string: body.checkUrl), let base = URL(string: keys.baseURL) else {
            throw APIProblem.invalid([InvalidParameter(name: "path", reason: "must be cellular or wifi, with an http check_url")])
        }
        guard let verification = try await store.verification(id: body.requestId), verification.phoneNumber == number else {
            throw APIProblem.notFound
        }
        let modem = SocketCellularTransport(sourceAddress: path == "cellular" ? "127.0.0.2" : "127.0.0.1")
        let result = await SilentAuth.run(checkURL: checkURL, requestId: body.requestId, clientToken: body.clientToken,
                                          baseURL: base, transport: modem, apiTransport: SocketCellularTransport())
        return .json(bytes: JSONText.encode(Self.describe(result)), headers: [("Cache-Control", "no-store")])
    }

    static func describe(_ result: SilentAuthResult) -> [String: String] {
        switch result {
        case .submitted: return ["result": "submitted"]
        case .clientError(let name, let message): return ["result": "client_error", "name": name, "message": message]
        case .failed(let reason): return ["result": "failed", "reason": reason.rawValue]
        }
    }
}
