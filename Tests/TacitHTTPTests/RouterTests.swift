import Foundation
import Testing
import TacitHTTP

@Suite("Router")
struct RouterTests {
    static func router() -> Router {
        var router = Router()
        let describe: (String) -> HTTPHandler = { name in
            { request in
                let parameters = request.pathParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                return .text("\(name) \(request.routePattern ?? "-") \(parameters.joined(separator: ","))")
            }
        }
        router.add("GET", "/v1/verifications/:id", describe("get"))
        router.add("DELETE", "/v1/verifications/:id", describe("delete"))
        router.add("POST", "/v1/verifications/:id/check", describe("check"))
        router.add("GET", "/v1/verifications/openapi", describe("static"))
        router.add("GET", "/assets/*path", describe("asset"))
        router.add("GET", "/", describe("root"))
        return router
    }

    func answer(_ method: String, _ path: String) async -> (Int, String, HTTPResponse) {
        let response = await Self.router().handle(HTTPRequest(method: method, path: path))
        guard case .bytes(let bytes) = response.body else { return (response.status, "<stream>", response) }
        return (response.status, String(decoding: bytes, as: UTF8.self), response)
    }

    @Test("routes by method and fills path parameters and the route pattern", arguments: [
        ("GET", "/v1/verifications/abc", "get /v1/verifications/:id id=abc"),
        ("DELETE", "/v1/verifications/abc", "delete /v1/verifications/:id id=abc"),
        ("POST", "/v1/verifications/x-1/check", "check /v1/verifications/:id/check id=x-1"),
        ("GET", "/v1/verifications/openapi", "static /v1/verifications/openapi "),
        ("GET", "/assets/css/site.css", "asset /assets/*path path=css/site.css"),
        ("GET", "/assets/a/b/c/d/e.css", "asset /assets/*path path=a/b/c/d/e.css"),
        ("GET", "/assets", "asset /assets/*path path="),
        ("GET", "/", "root / "),
        ("HEAD", "/v1/verifications/abc", "get /v1/verifications/:id id=abc"),
    ])
    func routes(method: String, path: String, expected: String) async {
        let (status, body, _) = await answer(method, path)
        #expect(status == 200)
        #expect(body == expected)
    }

    @Test("overlapping patterns filed under different leading literals still meet: the most specific wins", arguments: [
        ("/a/b/c", "/a/b/c"), ("/a/z/c", "/a/:x/c"), ("/q/b/c", "/:y/b/c"), ("/q/r", "/*rest"), ("/a/b", "/*rest"),
    ])
    func leadingLiterals(path: String, pattern: String) {
        var router = Router()
        for route in ["/*rest", "/:y/b/c", "/a/:x/c", "/a/b/c"] {
            router.add("GET", route) { _ in .text(route) }
        }
        router.add("PUT", "/a/b/:z") { _ in .text("put") }
        #expect(router.routePattern(for: HTTPRequest(method: "GET", path: path)) == pattern)
        #expect(router.routePattern(for: HTTPRequest(method: "PUT", path: "/a/b/c")) == "/a/b/:z")
    }

    @Test("routePattern(for:) names the route without running it")
    func patternLookup() {
        let router = Self.router()
        #expect(router.routePattern(for: HTTPRequest(method: "POST", path: "/v1/verifications/a/check")) == "/v1/verifications/:id/check")
        #expect(router.routePattern(for: HTTPRequest(method: "POST", path: "/v1/verifications/a")) == nil)
    }

    @Test("an unknown path answers 404 not-found as problem+json")
    func notFound() async {
        let (status, body, response) = await answer("GET", "/v1/nothing/here")
        #expect(status == 404)
        #expect(response.header("Content-Type") == "application/problem+json")
        let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        #expect(json?["type"] as? String == "not-found")
        #expect(json?["status"] as? Int == 404)
    }

    @Test("a known path with the wrong method answers 405 with Allow")
    func methodNotAllowed() async {
        let (status, body, response) = await answer("PUT", "/v1/verifications/abc")
        #expect(status == 405)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Allow") == "DELETE, GET, HEAD, OPTIONS")
        #expect(body.contains("\"type\":\"method-not-allowed\""))
    }

    @Test("OPTIONS answers 204 with Allow, and an unknown method on a known path answers 405")
    func optionsAndUnknown() async {
        let (optionsStatus, _, options) = await answer("OPTIONS", "/v1/verifications/abc/check")
        #expect(optionsStatus == 204)
        #expect(options.header("Allow") == "OPTIONS, POST")
        let (brewStatus, body, _) = await answer("BREW", "/")
        #expect(brewStatus == 405)
        #expect(body.contains("\"type\":\"method-not-allowed\""))
    }

    @Test("problem bodies escape their text as JSON")
    func problemEscapes() throws {
        let response = HTTPResponse.problem(status: 400, type: "bad", title: "Quote \" and\nline", detail: "tab\t\u{1}")
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        let json = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        #expect(json?["title"] as? String == "Quote \" and\nline")
        #expect(json?["detail"] as? String == "tab\t\u{1}")
    }
}
