import Foundation
import Testing
import TacitServer

@Suite("API keys and client tokens")
struct SecurityAuthTests {
    static let number = "+447911123456"

    @Test("without --dev, /v1 refuses a keyless call with 401, a challenge and problem+json; open routes stay open")
    func keylessRefused() async throws {
        try await SecurityCalls.test(dev: false) { server in
            for (method, path) in [("POST", "/v1/verifications"), ("GET", "/v1/verifications/vf_x"), ("DELETE", "/v1/verifications/vf_x")] {
                let reply = try await server.request(method, path, json: method == "POST" ? ["phone_number": Self.number] : nil)
                #expect(reply.status == 401)
                #expect(reply.type == "unauthorized")
                #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(reply.header("Content-Type") == "application/problem+json")
            }
            #expect(server.sender.count == 0)
            for path in ["/healthz", "/readyz", "/metrics", "/v1/openapi.json"] {
                #expect(try await server.request("GET", path).status == 200, "\(path)")
            }
        }
    }

    @Test("without --dev, /v1/dev routes do not exist, even with a key")
    func devRoutesHidden() async throws {
        try await SecurityCalls.test(dev: false) { server in
            let key = try await server.makeKey()
            let reply = try await server.request("GET", "/v1/dev/handsets/%2B99012345670/inbox", token: key)
            #expect(reply.status == 404)
            #expect(reply.type == "not-found")
        }
    }

    @Test("a valid key works, a made-up key and a revoked key are 401")
    func keysAndRevocation() async throws {
        try await SecurityCalls.test(dev: false) { server in
            let manager = try await KeyManager.open(store: server.store)
            let (key, secret) = try await manager.create(name: "backend")
            #expect(try await server.start(Self.number, token: secret).status == 202)
            #expect(try await server.start("+447911123457", token: "tk_" + String(secret.dropFirst(4)) + "x").status == 401)
            #expect(try await manager.list().first?.lastUsedAt != nil)
            #expect(try await manager.revoke(id: key.id))
            let revoked = try await server.start("+447911123457", token: secret)
            #expect(revoked.status == 401)
            #expect(revoked.type == "unauthorized")
        }
    }

    @Test("a read-only key may read but not start: 403 forbidden")
    func scopes() async throws {
        try await SecurityCalls.test(dev: false) { server in
            let writer = try await server.makeKey(scopes: [Scope.write])
            let reader = try await server.makeKey(scopes: [Scope.read])
            let started = try await server.start(Self.number, token: writer)
            let id = try #require(started.json["request_id"] as? String)
            let refused = try await server.start("+447911123457", token: reader)
            #expect(refused.status == 403)
            #expect(refused.type == "forbidden")
            #expect(try await server.request("GET", "/v1/verifications/\(id)", token: reader).status == 200)
            #expect(try await server.request("GET", "/v1/verifications/\(id)", token: writer).status == 403)
            #expect(server.sender.count == 1)
        }
    }

    @Test("a client token submits the silent code for its own verification only, and only while the silent step is active; a forged one naming it is a 401")
    func clientTokenScope() async throws {
        try await SecurityCalls.test(dev: false, silent: IssuingSilentAuth()) { server in
            let key = try await server.makeKey()
            let first = try await server.start(Self.number, workflow: ["silent_auth", "sms"], token: key)
            let second = try await server.start("+447911123457", workflow: ["silent_auth", "sms"], token: key)
            let id = try #require(first.json["request_id"] as? String)
            let otherId = try #require(second.json["request_id"] as? String)
            let token = try #require(first.json["client_token"] as? String)

            // Reaches the route (a wrong silent code is an ordinary 400), so the token was accepted.
            #expect(try await server.check(id, "wrong-code-1234", token: token).type == "invalid-code")
            #expect(try await server.check(otherId, "wrong-code-1234", token: token).status == 403, "another pending verification's token")
            // A token names its verification; one naming it with a made-up tail is nobody's token.
            #expect(token.hasPrefix("ct_\(id)_"))
            let forged = "ct_\(id)_" + String(repeating: "A", count: 43)
            #expect(try await server.check(otherId, "wrong-code-1234", token: forged).status == 401)
            #expect(try await server.check(id, "wrong-code-1234", token: forged).status == 401)
            #expect(try await server.request("GET", "/v1/verifications/\(id)", token: token).status == 403)
            #expect(try await server.request("DELETE", "/v1/verifications/\(id)", token: token).status == 403)
            #expect(try await server.request("POST", "/v1/verifications/\(id)/next", json: [:], token: key).status == 200)
            #expect(try await server.check(id, "123456", token: token).status == 403)
            #expect(try await server.request("DELETE", "/v1/verifications/\(id)", token: key).status == 204)
            #expect(try await server.check(id, "123456", token: token).status == 403, "the token ended with its verification")
        }
    }

}
