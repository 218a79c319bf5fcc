import Foundation
import TacitNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession-based client for live tests against a loopback server.
struct HTTPClient {
    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let base: String
    let session: URLSession

    init(port: Int, host: String = "127.0.0.1") {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 256
        configuration.timeoutIntervalForRequest = 10
        self.base = host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
        self.session = URLSession(configuration: configuration)
    }

    func send(_ method: String = "GET", _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.cancellableData(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)"] = "\(value)" }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }
}
