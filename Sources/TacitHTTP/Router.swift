/// Dispatches requests by method and path pattern.
///
/// Patterns are "/"-separated; a `:name` segment captures one segment and a final
/// `*name` segment captures the rest of the path. When several patterns match, the
/// most specific wins (literal segments before parameters). HEAD falls back to the GET
/// route, OPTIONS answers 204 with `Allow`, a path that exists under other methods
/// answers 405 and an unknown path 404, both as problem+json.
public struct Router: Sendable {
    private struct Route: Sendable {
        let method: String
        let pattern: RoutePattern
        let handler: HTTPHandler
    }

    /// Routes under the literal segments their pattern starts with, at most
    /// `indexedSegments` of them joined with "/" ("" for a pattern that starts with a
    /// parameter): a request is matched against the few routes under its own path's
    /// leading segments, not against every route.
    private var routesByLeadingLiterals: [String: [Route]] = [:]
    private static let indexedSegments = 2

    /// Answers a request that no route takes, given the patterns its path matches under
    /// other methods (empty when none does) and the router's own answer (404, 405, or
    /// 204 for OPTIONS), which it may return or replace. A layer that must see every
    /// request before a path's existence is revealed (an authentication gate) sets it.
    public var unrouted: (@Sendable (HTTPRequest, [String], HTTPResponse) async -> HTTPResponse)?

    /// Creates an empty router.
    public init() {}

    /// Adds a route; `method` is matched case-sensitively, as HTTP requires.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping HTTPHandler) {
        let route = Route(method: method, pattern: RoutePattern(pattern), handler: handler)
        var literals: [String] = []
        for case .literal(let literal) in route.pattern.segments.prefix(while: \.isLiteral)
            .prefix(Self.indexedSegments) {
            literals.append(literal)
        }
        routesByLeadingLiterals[literals.joined(separator: "/"), default: []].append(route)
    }

    /// Answers `request` with the matching route's handler, or a problem response.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        // A method no route takes (TRACE, an unknown token) is a client error on that path:
        // 405 where the path exists, 404 where it doesn't, never a 5xx.
        let matches = self.matches(request)
        if let (route, parameters) = best(matches, for: request.method) {
            var request = request
            request.pathParameters = parameters
            request.routePattern = route.pattern.text
            return await route.handler(request)
        }
        let answer: HTTPResponse = matches.isEmpty
            ? .problem(status: 404, type: "not-found", title: "Not found", detail: "No resource exists at this path.")
            : answerWithoutRoute(request.method, allowed: allowedMethods(matches.map(\.0.method)))
        guard let unrouted else { return answer }
        return await unrouted(request, matches.map(\.0.pattern.text), answer)
    }

    /// The pattern `request` would be routed to, without running it; for labelling
    /// metrics around the router.
    public func routePattern(for request: HTTPRequest) -> String? {
        best(matches(request), for: request.method)?.0.pattern.text
    }

    /// Every route whose pattern matches the path, whatever its method, with its captures.
    private func matches(_ request: HTTPRequest) -> [(Route, [String: String])] {
        let parts = request.pathSegments
        var found: [(Route, [String: String])] = []
        // The key grows a segment at a time (`joined` over substrings cost more than the match).
        var key = ""
        for depth in 0...min(parts.count, Self.indexedSegments) {
            if depth > 0 {
                if depth > 1 { key += "/" }
                key += parts[depth - 1]
            }
            for route in routesByLeadingLiterals[key] ?? [] {
                if let captured = route.pattern.match(parts) { found.append((route, captured)) }
            }
        }
        return found
    }

    private func best(_ matches: [(Route, [String: String])], for method: String) -> (Route, [String: String])? {
        let exact = matches.filter { $0.0.method == method }
        let candidates = exact.isEmpty && method == "HEAD" ? matches.filter { $0.0.method == "GET" } : exact
        return candidates.reduce(nil) { current, next in
            guard let current else { return next }
            return next.0.pattern.isMoreSpecific(than: current.0.pattern) ? next : current
        }
    }

    private func allowedMethods(_ methods: [String]) -> String {
        var set = Set(methods)
        if set.contains("GET") { set.insert("HEAD") }
        set.insert("OPTIONS")
        return set.sorted().joined(separator: ", ")
    }

    private func answerWithoutRoute(_ method: String, allowed: String) -> HTTPResponse {
        if method == "OPTIONS" {
            return .empty(status: 204, headers: [("Allow", allowed)])
        }
        return .problem(status: 405, type: "method-not-allowed", title: "Method not allowed",
                        detail: "This path does not support the request method.",
                        headers: [("Allow", allowed)])
    }
}
