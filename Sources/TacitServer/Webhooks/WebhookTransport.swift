import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one webhook request. A protocol so that tests and embedders can replace the
/// network; the application uses ``URLSessionWebhookTransport``.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` to `url` and returns the status code, or nil when no HTTP answer came
    /// (connection refused, timeout, TLS failure).
    func post(url: URL, headers: [(String, String)], body: [UInt8], timeout: TimeInterval) async -> Int?
}

/// Webhook delivery over `URLSession`. Redirects are not followed: a redirect could
/// point past the target guard, so a 3xx counts as a failed attempt.
public final class URLSessionWebhookTransport: WebhookTransport {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: RefuseRedirects(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func post(url: URL, headers: [(String, String)], body: [UInt8], timeout: TimeInterval) async -> Int? {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(body)
        guard let (_, response) = try? await session.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }
}

/// Answers every redirect with "don't follow".
private final class RefuseRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
