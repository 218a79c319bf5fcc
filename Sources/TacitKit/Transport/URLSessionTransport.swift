import Foundation
import TacitNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `CellularTransport` over URLSession, on whatever path the system picks
/// (usually Wi-Fi): what `tacit verify --wifi` uses, and the default for calls
/// to the Tacit API itself. Redirects are returned, not followed.
public struct URLSessionTransport: CellularTransport {
    private let session: URLSession

    public init() {
        let config = URLSessionConfiguration.ephemeral
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The silent flow carries its chain's cookies itself, hop by hop, as it follows
        // the redirects itself; a cookie store of the session's own would add a second copy.
        config.httpShouldSetCookies = false
        config.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: config, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    /// Always true: the system picks some path.
    public var isAvailable: Bool { true }

    public func send(_ request: CellularRequest) async throws -> CellularResponse {
        var req = URLRequest(url: request.url)
        req.httpMethod = request.method
        req.httpBody = request.body
        req.timeoutInterval = Double(request.timeout.components.seconds)
            + Double(request.timeout.components.attoseconds) / 1e18
        for (name, value) in request.headers { req.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.cancellableData(for: req)
        } catch {
            if Task.isCancelled { throw CellularTransportError(.cancelled, "cancelled") }
            let timedOut = (error as? URLError)?.code == .timedOut
            throw CellularTransportError(timedOut ? .timeout : .connectionFailed,
                                         timedOut ? "timed out" : "request failed")
        }
        guard let http = response as? HTTPURLResponse else {
            throw CellularTransportError(.invalidResponse, "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return CellularResponse(status: http.statusCode, headers: headers, body: data)
    }
}

/// Hands every redirect back to the caller, who counts and checks hops itself.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
