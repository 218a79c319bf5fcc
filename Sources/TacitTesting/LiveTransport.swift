import Foundation
import TacitNetworking
import TacitCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live mode's HTTP: one URLSession for every test, with room for the concurrent
/// requests the abuse tests make and no caches or cookies carried between tests.
struct LiveTransport: Sendable {
    static let shared = LiveTransport()
    private let session: URLSession

    private init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 128
        configuration.timeoutIntervalForRequest = 20
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    func send(_ method: String, url: String, body: Data?, headers: [String: String]) async throws -> TestResponse {
        guard let target = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.cancellableData(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            fields[String(describing: name).lowercased()] = String(describing: value)
        }
        return TestResponse(status: http.statusCode, headers: fields, body: data)
    }
}
