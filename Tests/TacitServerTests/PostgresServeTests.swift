import Foundation
import Testing
import TacitTesting

/// `tacit serve --database-url` on the throwaway PostgreSQL cluster, as an operator runs it.
@Suite("tacit serve on PostgreSQL (the built binary)", .enabled(if: PostgresCluster.enabled))
struct PostgresServeTests {
    @Test("two instances started together on one database migrate once; a verification started on one completes, and the other reads it")
    func verificationEndToEnd() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-pg-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // One secret for both: a key file made by two instances starting at once would hold two different keys.
        let flags = ["--database-url", url, "--secret", "pg-serve-test-secret"]
        async let starting = TimelineCLITests.offPool { try TimelineCLITests.serve(directory, flags: flags) }
        async let startingToo = TimelineCLITests.offPool { try TimelineCLITests.serve(directory, flags: flags) }
        let ((first, base), (second, other)) = try await (starting, startingToo)
        defer { first.terminate(); second.terminate() }

        let number = "+99012345631"
        let created = try await TimelineCLITests.call("POST", base + "/v1/verifications",
                                                      json: "{\"phone_number\":\"\(number)\",\"workflow\":[{\"channel\":\"sms\"}]}")
        let id = try #require(created["request_id"] as? String)
        let inbox = try await TimelineCLITests.call("GET", base + "/v1/dev/handsets/%2B99012345631/inbox")
        let body = try #require((inbox["messages"] as? [[String: Any]])?.last?["body"] as? String)
        let code = try #require(TimelineCalls.code(in: body))
        let checked = try await TimelineCLITests.call("POST", base + "/v1/verifications/\(id)/check", json: "{\"code\":\"\(code)\"}")
        #expect(checked["status"] as? String == "completed")

        let read = try await TimelineCLITests.call("GET", other + "/v1/verifications/\(id)")
        #expect(read["status"] as? String == "completed", "the other instance reads what the first wrote")
        let again = try await TimelineCLITests.call("POST", other + "/v1/verifications",
                                                    json: "{\"phone_number\":\"\(number)\",\"workflow\":[{\"channel\":\"sms\"}]}")
        #expect(again["request_id"] as? String != nil, "the number is free again on either instance")

        first.terminate()
        second.terminate()
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        let outputs = [first, second].flatMap { [$0.standardOutput!, $0.standardError!].map { $0.fileHandleForReading.readDataToEndOfFile() } }
        for secret in [number, String(number.dropFirst()), code] {
            #expect(outputs.allSatisfy { $0.range(of: Data(secret.utf8)) == nil })
        }
    }
}
