import Foundation
import TacitHTTP

/// The one client for a `TestApplication`, in either mode: a method, a path (with its
/// query), headers and a body in; a `TestResponse` out.
///
/// In process, each request becomes an `HTTPRequest` from `remoteAddress` handed to the
/// application's gated routes; live, it goes over loopback HTTP, where the address is
/// the socket's own. Streaming bodies (SSE) are read to their end in process: tests of a
/// stream as it flows belong in live mode.
public struct TestClient: Sendable {
    let app: TestApplication
    /// The client's address as the server sees it in process; loopback by default.
    public var remoteAddress = "127.0.0.1"
    /// Headers sent with every request, e.g. an `Authorization`.
    public var defaultHeaders: [String: String] = [:]

    init(_ app: TestApplication) { self.app = app }

    /// A copy of this client that the server sees coming from `address` (in process).
    public func from(_ address: String) -> TestClient {
        var copy = self
        copy.remoteAddress = address
        return copy
    }

    /// A copy of this client that sends `Authorization: Bearer token`.
    public func bearer(_ token: String) -> TestClient {
        var copy = self
        copy.defaultHeaders["Authorization"] = "Bearer \(token)"
        return copy
    }

    /// Sends one request. A body without a `Content-Type` header is sent as JSON.
    public func send(_ method: String, _ path: String, body: Data? = nil,
                     headers: [String: String] = [:]) async throws -> TestResponse {
        var fields = defaultHeaders.merging(headers) { $1 }
        if body != nil, !fields.keys.contains(where: { $0.lowercased() == "content-type" }) {
            fields["Content-Type"] = "application/json"
        }
        switch app.mode {
        case .inProcess: return await sendInProcess(method, path, body: body, headers: fields)
        case .live:
            return try await LiveTransport.shared.send(method, url: app.baseURL + path, body: body, headers: fields)
        case .liveTLS:
            return try await LiveTLSTransport.send(method, url: app.baseURL + path, body: body, headers: fields)
        }
    }

    public func get(_ path: String, headers: [String: String] = [:]) async throws -> TestResponse {
        try await send("GET", path, headers: headers)
    }

    public func delete(_ path: String, headers: [String: String] = [:]) async throws -> TestResponse {
        try await send("DELETE", path, headers: headers)
    }

    /// POSTs `json` (a dictionary or array) encoded with JSONSerialization.
    public func post(_ path: String, json: Any, headers: [String: String] = [:]) async throws -> TestResponse {
        try await send("POST", path, body: try JSONSerialization.data(withJSONObject: json), headers: headers)
    }

    /// POSTs `raw` as it is, e.g. malformed JSON.
    public func post(_ path: String, raw: String, headers: [String: String] = [:]) async throws -> TestResponse {
        try await send("POST", path, body: Data(raw.utf8), headers: headers)
    }

    private func sendInProcess(_ method: String, _ path: String, body: Data?,
                               headers: [String: String]) async -> TestResponse {
        let request = InProcessRequest.make(method, path, body: body, headers: headers, remoteAddress: remoteAddress)
        let response = await app.application.handle(request)
        return await InProcessRequest.collect(response)
    }
}
