import Foundation
import Testing
@testable import TacitServer
import TacitHTTP
import TacitCore
import TacitTesting

@Suite("Enumeration, dev access and overload", .timeLimit(.minutes(1)))
struct SecurityExposureTests {
    @Test("without a key, an unknown id and a finished one answer with the same status and body")
    func keylessParity() async throws {
        try await SecurityCalls.test(dev: false) { server in
            let key = try await server.makeKey()
            let id = try #require(try await server.start("+447911123456", token: key).json["request_id"] as? String)
            #expect(try await server.request("DELETE", "/v1/verifications/\(id)", token: key).status == 204)
            for (method, tail) in [("GET", ""), ("POST", "/check"), ("POST", "/next"), ("DELETE", "")] {
                let known = try await server.request(method, "/v1/verifications/\(id)\(tail)", json: method == "POST" ? ["code": "123456"] : nil)
                let unknown = try await server.request(method, "/v1/verifications/vf_doesnotexist\(tail)", json: method == "POST" ? ["code": "123456"] : nil)
                #expect(known.status == 401)
                #expect(known.status == unknown.status)
                #expect(known.body == unknown.body)
            }
        }
    }

    @Test("a client token probing other ids gets one answer for unknown, pending and finished ones")
    func clientTokenParity() async throws {
        try await SecurityCalls.test(dev: false, silent: IssuingSilentAuth()) { server in
            let key = try await server.makeKey()
            let mine = try await server.start("+447911123456", workflow: ["silent_auth", "sms"], token: key)
            let token = try #require(mine.json["client_token"] as? String)
            let pending = try #require(try await server.start("+447911123457", token: key).json["request_id"] as? String)
            let finished = try #require(try await server.start("+447911123458", token: key).json["request_id"] as? String)
            #expect(try await server.request("DELETE", "/v1/verifications/\(finished)", token: key).status == 204)
            var answers: Set<String> = []
            for id in [pending, finished, "vf_doesnotexist"] {
                for tail in ["check", "events"] {
                    let reply = try await server.request("POST", "/v1/verifications/\(id)/\(tail)", json: ["code": "abcdefgh1234"], token: token)
                    answers.insert("\(reply.status) \(reply.text)")
                }
            }
            #expect(answers.count == 1)
            #expect(answers.first?.hasPrefix("403 ") == true, "a live token used elsewhere is refused the same way everywhere")
        }
    }

    @Test("in dev mode, keyless calls are accepted from loopback only")
    func devKeylessLoopbackOnly() async throws {
        let authenticator = Authenticator(keys: nil, store: InMemoryStore(), secrets: ServerSecrets(master: Array(repeating: 1, count: 32)),
                                          clock: SystemClock(), dev: true,
                                          devAccess: DevAccess(host: "127.0.0.1", port: 8080, publicURL: nil, tls: false))
        for address in ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"] {
            let request = HTTPRequest(method: "GET", path: "/v1/verifications/x", remoteAddress: address)
            #expect(try await authenticator.authenticate(request, scope: Scope.read, id: "x", device: nil) == .devLoopback)
        }
        for address in ["10.0.0.7", "203.0.113.5", "::ffff:10.1.2.3", "fe80::1"] {
            let request = HTTPRequest(method: "GET", path: "/v1/verifications/x", remoteAddress: address)
            await #expect(throws: APIProblem.unauthorized) {
                try await authenticator.authenticate(request, scope: Scope.read, id: "x", device: nil)
            }
        }
    }

    @Test("with every handler slot busy, API calls get 503 with Retry-After at once while /healthz answers 200")
    func overload() async throws {
        let sender = RecordingSender(holding: true)
        try await SecurityCalls.test(.live, sender: sender, configure: { $0.maxInFlight = 1 }) { server in
            async let held = server.start("+447911123456")
            await sender.waitFor(1)
            let refused = try await server.request("GET", "/v1/verifications/vf_any")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(try await server.request("GET", "/healthz").status == 200)
            #expect(try await server.request("GET", "/readyz").status == 200)
            sender.release()
            #expect(try await held.status == 202)
            #expect(try await server.request("GET", "/v1/verifications/vf_any").status == 404)
        }
    }
}
