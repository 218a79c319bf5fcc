import Foundation
import TacitCLI
import TacitKit
import Testing
import TacitTesting

/// `tacit serve --database-url` on the throwaway PostgreSQL cluster: two instances, run in
/// process, as an operator runs them.
@Suite("tacit serve on PostgreSQL", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct PostgresServeTests {
    /// A started `serve` and the URL it announced.
    static func started(_ server: RunningCommand) async throws -> String {
        let announced = try await server.output(showing: "Console:")
        let base = announced.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http") }.map(String.init)
        return try #require(base)
    }

    @Test("two instances on one database migrate once; one's verification streams live from the other, which reads it")
    func verificationEndToEnd() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // One secret for both: a key file made by two instances starting at once would hold two different keys.
        // A start waits for its send's answer, so the code is in an inbox when the start answers.
        let config = directory.appendingPathComponent("tacit.conf")
        try "TACIT_SEND_WAIT_MS=10000\n".write(to: config, atomically: true, encoding: .utf8)
        let flags = ["serve", "--dev", "--port", "0", "--database-url", url, "--secret", "pg-serve-test-secret",
                     "--config", config.path]
        let servers = [RunningCommand(flags), RunningCommand(flags)]
        let code: String
        do {
            async let base = Self.started(servers[0])
            async let other = Self.started(servers[1])
            code = try await Self.exercise(base: try await base, other: try await other)
        } catch {
            for server in servers { server.interrupt(); _ = await server.finish() }
            throw error
        }
        for server in servers { server.interrupt() }
        let runs = [await servers[0].finish(), await servers[1].finish()]
        #expect(runs.allSatisfy { $0.status == 0 })
        for run in runs {
            for secret in ["+99012345631", "99012345631", code] {
                #expect(!run.out.contains(secret) && !run.err.contains(secret))
            }
        }
    }

    /// Starts a verification on `base`, follows it from `other` and checks its code there;
    /// returns the code.
    static func exercise(base: String, other: String) async throws -> String {
        let number = "+99012345631"
        let client = TacitClient(baseURL: try #require(URL(string: base)))
        let otherClient = TacitClient(baseURL: try #require(URL(string: other)))
        let created = try await client.start(StartVerificationRequest(phoneNumber: number, workflow: [.sms]))
        let id = created.requestId
        // A stream on the other instance, opened before anything more is written: what the
        // first writes from here on reaches it as it is written (docs/postgres.md).
        let seen = SeenEvents()
        let stream = Task {
            for try await event in otherClient.eventStream(id) { seen.append(event) }
        }
        defer { stream.cancel() }
        try await within(10) { await seen.wait { $0.contains { $0.label == "sms:code_sent" } } }
        // Either instance's send worker may take the queued send (the claim is shared); the dev
        // handset inbox is the store's, so each instance shows the one message.
        let inboxes = [try await client.handsetInbox(number), try await otherClient.handsetInbox(number)]
        #expect(inboxes[1].count == 1, "one send, delivered once")
        #expect(inboxes[0].map(\.body) == inboxes[1].map(\.body), "the message is in the other's inbox too")
        let code = try #require(inboxes[1].first?.code)
        let checked = try await otherClient.check(id, code: code)
        #expect(checked.status == .completed)
        try await within(10) { try await stream.value }
        let streamed = seen.events.map(\.seq)
        #expect(streamed == Array(1...streamed.count), "in order, once each, the check's events included")
        #expect(seen.events.last?.label == "verification:summary")

        #expect(try await otherClient.state(id).status == .completed, "the other instance reads what the first wrote")
        let again = try await otherClient.start(StartVerificationRequest(phoneNumber: number, workflow: [.sms]))
        #expect(!again.requestId.isEmpty, "the number is free again on either instance")
        return code
    }
}
