import Foundation

/// The device's calls to the Tacit server, authorised by the client token.
struct DeviceAPI: Sendable {
    let baseURL: URL
    let requestId: String
    let clientToken: String
    let transport: any CellularTransport
    let timeout: Duration

    /// Posts a device event. Best-effort: a failure here never changes a result.
    func post(_ event: DeviceEvent) async {
        guard let body = try? TacitJSON.encoder().encode(event) else { return }
        _ = try? await transport.send(request("events", body: body))
    }

    /// Sends the code to `POST /v1/verifications/{id}/check`.
    func submit(code: String) async throws -> CellularResponse {
        let body = try TacitJSON.encoder().encode(CodeBody(code: code))
        return try await transport.send(request("check", body: body))
    }

    private func request(_ tail: String, body: Data) -> CellularRequest {
        let id = requestId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? requestId
        let url = baseURL.appending(encodedPath: "v1/verifications/\(id)/\(tail)")
        let headers = [
            "Authorization": "Bearer \(clientToken)",
            "Content-Type": "application/json",
            "Accept": "application/json",
        ]
        return CellularRequest(method: "POST", url: url, headers: headers, body: body, timeout: timeout)
    }
}
