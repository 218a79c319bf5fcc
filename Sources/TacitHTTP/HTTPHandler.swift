/// Answers one request. Handlers run as Swift tasks; they may await freely, since no
/// server thread waits for them.
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse
