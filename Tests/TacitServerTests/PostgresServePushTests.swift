import Foundation
import Testing
import TacitTesting

/// Two `tacit serve` on one database, as an operator runs them: a timeline stream on one
/// shows what is written through the other as it is written (SPEC §9).
@Suite("tacit serve pair on PostgreSQL: live timelines across instances", .enabled(if: PostgresCluster.enabled),
       .timeLimit(.minutes(1)))
struct PostgresServePushTests {
    @Test("an SSE stream on one instance gets the events written through the other, in order, once each, up to the summary")
    func streamAcrossProcesses() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-pg-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let flags = ["--database-url", url, "--secret", "pg-push-test-secret"]
        async let starting = TimelineCLITests.serve(directory, flags: flags)
        async let startingToo = TimelineCLITests.serve(directory, flags: flags)
        let ((writer, base), (reader, other)) = try await (starting, startingToo)
        defer { writer.terminate(); reader.terminate() }

        let created = try await TimelineCLITests.call("POST", base + "/v1/verifications",
                                                      json: #"{"phone_number":"+99012345632","workflow":[{"channel":"sms"}]}"#)
        let id = try #require(created["request_id"] as? String)
        let probe = TimelineSSEProbe(try #require(URL(string: other)), id: id)
        let early = try await within(10) { try await probe.messages { $0.label == "sms:code_sent" } }
        // The reader follows it now; everything from here is written through the writer.
        _ = try await TimelineCLITests.call("POST", base + "/v1/verifications/\(id)/check", json: #"{"code":"000000"}"#)
        _ = try await TimelineCLITests.call("DELETE", base + "/v1/verifications/\(id)")
        let live = try await within(10) { try await probe.messages() }
        let ids = (early + live).compactMap(\.id)
        #expect(ids == Array(1...ids.count))
        #expect(live.count >= 2, "the wrong code's events and the cancel's, at least")
        #expect(live.last?.label == "verification:summary")
    }
}
