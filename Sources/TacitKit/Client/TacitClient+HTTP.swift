import Foundation
import TacitNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TacitClient {
    func send<Response: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:]
    ) async throws -> Response {
        let data = try await perform(request(method, path, query: query, headers: headers))
        return try decode(data)
    }

    func send<Body: Encodable, Response: Decodable>(
        _ method: String, _ path: String, body: Body, headers: [String: String] = [:]
    ) async throws -> Response {
        var req = request(method, path, headers: headers)
        req.httpBody = try TacitJSON.encoder().encode(body)
        req.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return try decode(try await perform(req))
    }

    func request(
        _ method: String, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:]
    ) -> URLRequest {
        var url = baseURL.appending(encodedPath: path)
        if !query.isEmpty, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            parts.queryItems = query
            url = parts.url ?? url
        }
        var req = URLRequest(url: url)
        req.httpMethod = method
        req.setValue("application/json", forHTTPHeaderField: "Accept")
        if let apiKey { req.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { req.setValue(value, forHTTPHeaderField: name) }
        return req
    }

    /// Runs a request and turns any non-2xx answer into a `TacitError`.
    func perform(_ request: URLRequest) async throws -> Data {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.cancellableData(for: request)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw TacitError.network("the server could not be reached")
        }
        guard let http = response as? HTTPURLResponse else {
            throw TacitError.invalidResponse("not an HTTP response")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw TacitError.from(status: http.statusCode, body: data,
                                  retryAfterHeader: http.value(forHTTPHeaderField: "Retry-After"))
        }
        return data
    }

    func decode<Response: Decodable>(_ data: Data) throws -> Response {
        do {
            return try TacitJSON.decoder().decode(Response.self, from: data)
        } catch {
            throw TacitError.invalidResponse("the response body did not match the API")
        }
    }
}

extension URL {
    /// Appends an already percent-encoded path; `appendingPathComponent` would
    /// encode the `%` of `%2B` again.
    func appending(encodedPath path: String) -> URL {
        var base = absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + "/" + path) ?? appendingPathComponent(path)
    }
}
