import Foundation
import Testing
import TacitServer

@Suite("Adversarial: brute force, races, send limits")
struct SecurityAbuseTests {
    @Test("5 wrong codes fail the verification, and a new send on the next step does not reset the count")
    func bruteForce() async throws {
        try await SecurityCalls.test { server in
            let id = try #require(try await server.start("+447911123456").json["request_id"] as? String)
            for remaining in [4, 3, 2] {
                let reply = try await server.check(id, "000000")
                #expect(reply.status == 400)
                #expect(reply.json["attempts_remaining"] as? Int == remaining)
            }
            #expect(try await server.request("POST", "/v1/verifications/\(id)/next", json: [:]).status == 200)
            #expect(server.sender.count == 2)
            #expect(try await server.check(id, "000000").json["attempts_remaining"] as? Int == 1)
            let last = try await server.check(id, "000000")
            #expect(last.status == 410)
            #expect(last.type == "too-many-attempts")
            // Even the right code is refused now.
            #expect(try await server.check(id, "123456").status == 410)
        }
    }

    @Test("of 50 parallel checks with the right code, exactly one succeeds")
    func parallelRightCodes() async throws {
        try await SecurityCalls.test { server in
            let id = try #require(try await server.start("+447911123456").json["request_id"] as? String)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await server.check(id, "123456").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 409 })
        }
    }

    @Test("past 5 sends in 10 minutes a number gets no more sends: the step fails over, then starts are refused with 429")
    func sendLimit() async throws {
        try await SecurityCalls.test { server in
            let number = "+447911123456"
            // Two verifications of two steps each, then one more step: 5 sends.
            for _ in 0..<2 {
                let id = try #require(try await server.start(number).json["request_id"] as? String)
                #expect(try await server.request("POST", "/v1/verifications/\(id)/next", json: [:]).status == 200)
                #expect(try await server.request("DELETE", "/v1/verifications/\(id)").status == 204)
            }
            let id = try #require(try await server.start(number).json["request_id"] as? String)
            #expect(server.sender.count == 5)
            // The sixth send never reaches the sender; the step fails over and the timeline says why.
            let next = try await server.request("POST", "/v1/verifications/\(id)/next", json: [:])
            #expect(next.status == 200)
            #expect(server.sender.count == 5)
            let events = try await server.store.events(id: id, after: 0, limit: 100)
            #expect(events.contains { $0.label == "voice:failed" && $0.data["reason"] == .string("rate_limited") })
            let refused = try await server.start(number)
            #expect(refused.status == 429)
            #expect(refused.type == "rate-limited")
            #expect(refused.header("Retry-After").flatMap(Int.init).map { (1...600).contains($0) } == true)
            #expect(refused.json["retry_after"] as? Int == Int(refused.header("Retry-After") ?? ""))
            #expect(server.sender.count == 5)
            // A new window admits the number again.
            server.clock.advance(by: 600)
            #expect(try await server.start(number).status == 202)
            #expect(server.sender.count == 6)
            #expect(!server.logs.joined().contains("7911123456"))
        }
    }

    @Test("100 consecutive wrong codes for one number across verifications lock its checks and starts; a right code resets the run")
    func consecutiveFailures() async throws {
        try await SecurityCalls.test(configure: {
            $0.security.sendsPerNumber = .init(0, per: 600)
            $0.security.verificationsPerNumber = .init(0, per: 86_400)
        }) { server in
            let number = "+447911123456"
            for round in 0..<20 {
                let id = try #require(try await server.start(number, workflow: ["sms"]).json["request_id"] as? String)
                // The last round stops one short, so a verification is pending when the run reaches 100.
                for _ in 0..<(round == 19 ? 4 : 5) { _ = try await server.check(id, "000000") }
                if round == 19 { #expect(try await server.request("DELETE", "/v1/verifications/\(id)").status == 204) }
            }
            let id = try #require(try await server.start(number, workflow: ["sms"]).json["request_id"] as? String)
            #expect(try await server.check(id, "000000").status == 400)
            let locked = try await server.check(id, "123456")
            #expect(locked.status == 429)
            #expect(locked.type == "rate-limited")
            // Another number is untouched.
            let other = try #require(try await server.start("+447911123457", workflow: ["sms"]).json["request_id"] as? String)
            #expect(try await server.check(other, "123456").status == 200)
            // The run is remembered for a day, and no start is taken for the number meanwhile;
            // then a right code passes and resets it.
            #expect(try await server.request("DELETE", "/v1/verifications/\(id)").status == 204)
            #expect(try await server.start(number, workflow: ["sms"]).status == 429)
            server.clock.advance(by: 86_400)
            let fresh = try #require(try await server.start(number, workflow: ["sms"]).json["request_id"] as? String)
            #expect(try await server.check(fresh, "123456").status == 200)
        }
    }

    @Test("an API key past its request limit gets 429 with Retry-After")
    func perKeyLimit() async throws {
        try await SecurityCalls.test(dev: false, configure: { $0.security.requestsPerKey = .init(3, per: 60) }) { server in
            let key = try await server.makeKey()
            for _ in 0..<3 { #expect(try await server.request("GET", "/v1/verifications/vf_none", token: key).status == 404) }
            let limited = try await server.request("GET", "/v1/verifications/vf_none", token: key)
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") != nil)
            let other = try await server.makeKey()
            #expect(try await server.request("GET", "/v1/verifications/vf_none", token: other).status == 404)
        }
    }

    @Test("verifications per source address are limited when the address is counted")
    func perAddressLimit() async throws {
        try await SecurityCalls.test(configure: { configuration in
            configuration.security.verificationsPerAddress = .init(2, per: 3_600)
            configuration.security.limitLoopbackInDev = true
        }) { server async throws in
            #expect(try await server.start("+447911123456").status == 202)
            #expect(try await server.start("+447911123457").status == 202)
            #expect(try await server.start("+447911123458").status == 429)
            #expect(server.sender.count == 2)
        }
    }
}
