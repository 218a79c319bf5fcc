import Foundation
import Testing
import TacitTesting

/// `tacit serve --database-url` on the throwaway PostgreSQL cluster, as an operator runs it.
@Suite("tacit serve on PostgreSQL (the built binary)", .enabled(if: PostgresCluster.enabled))
struct PostgresServeTests {
    @Test("two instances started together on one database migrate once; a verification started on one completes, the other streams its events live and reads it")
    func verificationEndToEnd() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-pg-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // One secret for both: a key file made by two instances starting at once would hold two different keys.
        // A start waits for its send's answer, so the code is in an inbox when the start answers.
        let config = directory.appendingPathComponent("tacit.conf")
        try "TACIT_SEND_WAIT_MS=10000\n".write(to: config, atomically: true, encoding: .utf8)
        let flags = ["--database-url", url, "--secret", "pg-serve-test-secret", "--config", config.path]
        async let starting = TimelineCLITests.serve(directory, flags: flags)
        async let startingToo = TimelineCLITests.serve(directory, flags: flags)
        let ((first, base), (second, other)) = try await (starting, startingToo)
        defer { first.terminate(); second.terminate() }

        let number = "+99012345631"
        let created = try await TimelineCLITests.call("POST", base + "/v1/verifications",
                                                      json: "{\"phone_number\":\"\(number)\",\"workflow\":[{\"channel\":\"sms\"}]}")
        let id = try #require(created["request_id"] as? String)
        // A stream on the other instance, opened before anything more is written: what the
        // first writes from here on reaches it as it is written (docs/postgres.md#several-instances-the-change-feed).
        let probe = TimelineSSEProbe(try #require(URL(string: other)), id: id)
        let early = try await within(10) { try await probe.messages { $0.label == "sms:code_sent" } }
        // Either instance's send worker may take the queued send (the claim is shared); the dev
        // handset inbox is the store's, so each instance shows the one message.
        var inboxes: [[String]] = []
        for server in [base, other] {
            let inbox = try await TimelineCLITests.call("GET", server + "/v1/dev/handsets/%2B99012345631/inbox")
            inboxes.append(((inbox["messages"] as? [[String: Any]]) ?? []).compactMap { $0["body"] as? String })
        }
        #expect(inboxes[1].count == 1, "one send, delivered once")
        #expect(inboxes[0] == inboxes[1], "the message sent through one instance is in the other's inbox too")
        let body = try #require(inboxes[1].first)
        let code = try #require(TimelineCalls.code(in: body))
        let checked = try await TimelineCLITests.call("POST", other + "/v1/verifications/\(id)/check", json: "{\"code\":\"\(code)\"}")
        #expect(checked["status"] as? String == "completed")
        let live = try await within(10) { try await probe.messages() }
        let streamed = (early + live).compactMap(\.id)
        #expect(streamed == Array(1...streamed.count) && !live.isEmpty, "in order, once each, the check's events included")
        #expect(live.last?.label == "verification:summary")

        let read = try await TimelineCLITests.call("GET", other + "/v1/verifications/\(id)")
        #expect(read["status"] as? String == "completed", "the other instance reads what the first wrote")
        let again = try await TimelineCLITests.call("POST", other + "/v1/verifications",
                                                    json: "{\"phone_number\":\"\(number)\",\"workflow\":[{\"channel\":\"sms\"}]}")
        #expect(again["request_id"] as? String != nil, "the number is free again on either instance")

        first.terminate()
        second.terminate()
        let outputs = try await offThePool { () -> [Data] in
            let outputs = [first, second].flatMap { [$0.standardOutput!, $0.standardError!].map { $0.fileHandleForReading.readDataToEndOfFile() } }
            first.waitUntilExit()
            second.waitUntilExit()
            return outputs
        }
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        for secret in [number, String(number.dropFirst()), code] {
            #expect(outputs.allSatisfy { $0.range(of: Data(secret.utf8)) == nil })
        }
    }
}

/// The other commands on PostgreSQL, and a URL that names something else.
@Suite("tacit apps and keys on PostgreSQL (the built binary)", .enabled(if: PostgresCluster.enabled))
struct PostgresCommandTests {
    @Test("a --database-url that is not postgres:// is a usage error, exit 2")
    func wrongScheme() async throws {
        let run = try await KeyFixtures.tacit(["serve", "--port", "0", "--database-url", "mysql://root@127.0.0.1/tacit"])
        #expect(run.status == 2)
        #expect(run.err.contains("--database-url must be postgres://"))
    }

    @Test("apps create, keys create and apps list work on a PostgreSQL database, and list shows no secret")
    func appsAndKeys() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let store = ["--database-url", url, "--secret", "pg-commands-test-secret"]
        let created = try await KeyFixtures.tacit(["apps", "create", "--name", "Shop", "--json"] + store)
        #expect(created.status == 0, "\(created.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.out.utf8)) as? [String: Any])
        let id = try #require(object["id"] as? String), apiKey = try #require(object["api_key"] as? String)
        let key = try await KeyFixtures.tacit(["keys", "create", "--app", id, "--name", "ci"] + store)
        #expect(key.status == 0, "\(key.err)")
        let listed = try await KeyFixtures.tacit(["apps", "list"] + store)
        #expect(listed.status == 0)
        #expect(listed.out.split(separator: "\n").contains { $0.hasPrefix(id + "\tShop\t") })
        #expect(!listed.out.contains(apiKey) && !listed.err.contains(apiKey))
    }
}
