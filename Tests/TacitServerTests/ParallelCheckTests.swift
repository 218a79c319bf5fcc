import Foundation
import Testing
import TacitTesting
import TacitCrypto

@Suite("Parallel checks")
struct ParallelCheckTests {
    @Test("of 50 parallel checks with the right code, exactly one succeeds")
    func exactlyOneSucceeds() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .fixed("777777") }) { server, client in
            let (id, _) = try await client.start("+99012345685", channels: ["sms"])
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await client.post("/v1/verifications/\(id)/check", json: ["code": "777777"]).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 409 }.count == 49)
        }
    }
}
