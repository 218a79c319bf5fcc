import Foundation
import Testing
@testable import TacitServer
import TacitStore
import TacitTesting

/// The start and send limits hold over any span of their window, over coarse blocks of
/// numbers, and spend nothing on starts that were refused.
@Suite("Start and send limits")
struct SecurityLimitsTests {
    static let number = "+447911123456"

    @Test("ten starts to one number astride a clock-aligned ten-minute boundary reach the sender five times, not ten")
    func sendLimitSlides() async throws {
        try await SecurityCalls.test { server in
            // Two seconds before a multiple of 600 s since 1970, where a fixed window restarts.
            let now = server.clock.now().timeIntervalSince1970
            server.clock.advance(by: 600 - now.truncatingRemainder(dividingBy: 600) - 2)
            var statuses: [Int] = []
            for attempt in 0..<10 {
                if attempt == 5 { server.clock.advance(by: 2.3) }
                let reply = try await server.start(Self.number, workflow: ["sms"])
                statuses.append(reply.status)
                if let id = reply.json["request_id"] as? String {
                    _ = try await server.request("DELETE", "/v1/verifications/\(id)")
                } else {
                    #expect(reply.type == "rate-limited")
                    #expect(reply.header("Retry-After").flatMap(Int.init).map { (590...600).contains($0) } == true)
                }
            }
            #expect(statuses == Array(repeating: 202, count: 5) + Array(repeating: 429, count: 5))
            #expect(server.sender.count == 5)
            server.clock.advance(by: 600)
            #expect(try await server.start(Self.number, workflow: ["sms"]).status == 202, "a window after the fifth send")
        }
    }

    @Test("50 numbers spread over five hundred-blocks of one 10,000-block: 30 start, the rest are refused, another block is not")
    func velocityOverCoarseBlocks() async throws {
        try await SecurityCalls.test { server in
            var admitted = 0, refused = 0
            for block in 0..<5 {
                for last in 0..<10 {
                    let reply = try await server.start("+447911123\(block)" + String(format: "%02d", last), workflow: ["sms"])
                    if reply.status == 202 { admitted += 1 } else if reply.type == "rate-limited" { refused += 1 }
                }
            }
            #expect(admitted == 30)
            #expect(refused == 20)
            #expect(server.sender.count == 30)
            #expect(try await server.start("+447400123456").status == 202)
            #expect(server.logs.contains { $0.contains("sequential_numbers") })
            server.clock.advance(by: 3_600)
            #expect(try await server.start("+447911123499", workflow: ["sms"]).status == 202, "the block's budget slides free")
        }
    }

    @Test("a number refused by the velocity guard is judged again when it comes back, not passed as already counted")
    func refusedNumberJudgedAgain() async throws {
        try await SecurityCalls.test(configure: { $0.security.velocity = .init(2, per: 3_600) }) { server async throws in
            #expect(try await server.start("+447911123400").status == 202)
            #expect(try await server.start("+447911123401").status == 202)
            #expect(try await server.start("+447911123402").status == 429)
            #expect(try await server.start("+447911123402").status == 429)
            #expect(server.sender.count == 2)
        }
    }

    @Test("30 parallel starts for one number: one is created, 29 are refused with 409, and none of those spends the day's start quota")
    func refusedStartsSpendNothing() async throws {
        try await SecurityCalls.test { server in
            let replies = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<30 { group.addTask { try await server.start(Self.number, workflow: ["sms"]) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == 202 }.count == 1)
            #expect(replies.filter { $0.type == "concurrent-verification" }.count == 29)
            let id = try #require(replies.lazy.compactMap { $0.json["request_id"] as? String }.first)
            _ = try await server.request("DELETE", "/v1/verifications/\(id)")
            // The limit is 20 a day: only the one created start counted, so 19 more fit.
            for _ in 0..<4 {
                let reply = try await server.start(Self.number, workflow: ["sms"])
                #expect(reply.status == 202, "\(reply.text)")
                if let id = reply.json["request_id"] as? String { _ = try await server.request("DELETE", "/v1/verifications/\(id)") }
            }
        }
    }
}
