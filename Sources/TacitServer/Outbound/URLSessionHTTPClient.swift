import Foundation
import TacitNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TacitCore

/// The outbound HTTP port over `URLSession`, for webhooks and providers alike. Redirects
/// are never followed: a redirect could point past the webhook target guard (or a
/// provider's pinned host), so a 3xx comes back as the answer. No cookies, no cache.
public final class URLSessionHTTPClient: OutboundHTTPClient {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        // The default (6 per host) would queue a busy server's sends behind one provider's
        // slowest answers: at 300 ms each, six connections carry only 20 messages a second.
        // As many as the send worker has slots, so its sends never queue here instead.
        configuration.httpMaximumConnectionsPerHost = SendWorker.capacity
        session = URLSession(configuration: configuration, delegate: RefuseRedirects(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: OutboundRequest) async throws(OutboundHTTPError) -> OutboundResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.cancellableData(for: urlRequest)
        } catch {
            throw Self.failure(error)
        }
        guard let http = response as? HTTPURLResponse else { throw OutboundHTTPError(code: "invalid_response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        return OutboundResponse(status: http.statusCode, headers: headers, body: Array(data))
    }

    /// A stable code for why no answer came; never the URL, which may carry credentials.
    static func failure(_ error: any Error) -> OutboundHTTPError {
        guard let urlError = error as? URLError else { return OutboundHTTPError(code: "failed") }
        switch urlError.code {
        case .timedOut: return OutboundHTTPError(code: "timeout")
        case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet:
            return OutboundHTTPError(code: "unreachable")
        case .cannotFindHost, .dnsLookupFailed: return OutboundHTTPError(code: "unresolved")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot: return OutboundHTTPError(code: "tls")
        case .cancelled: return OutboundHTTPError(code: "cancelled")
        default: return OutboundHTTPError(code: "failed")
        }
    }
}

/// Answers every redirect with "don't follow".
private final class RefuseRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
