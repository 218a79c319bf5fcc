import Foundation
import Synchronization
import Testing
import TacitTesting
import TacitKit

/// Runs scripted flows end to end, collects every secret that was issued (codes from
/// the handset inbox and the dev mailbox, client tokens, full numbers and addresses),
/// then scans everything the server kept, logged or answered, except the create answer,
/// the handset inbox and the mailbox: zero hits.
@Suite("Timeline redaction scan", .timeLimit(.minutes(1)))
struct TimelineRedactionScanTests {
    /// What the flows issued and what the server showed.
    final class Evidence: Sendable {
        let secrets = Mutex<Set<String>>([])
        let seen = Mutex<[Data]>([])
        func secret(_ value: String) { secrets.withLock { _ = $0.insert(value) } }
        func saw(_ data: Data) { seen.withLock { $0.append(data) } }
    }

    @Test("no code, client token, full number or email address appears in the database, answers, errors, streams, exports or the log")
    func scan() async throws {
        try await TimelineCalls.test(.live) { server in
            let evidence = Evidence()
            try await smsCompleted(server, evidence)
            try await wrongCodesThenCompleted(server, evidence)
            try await voiceAfterTimeout(server, evidence)
            try await cancelled(server, evidence)
            try await expired(server, evidence)
            try await silentFirst(server, evidence)
            try await emailAfterSMS(server, evidence)
            let secrets = evidence.secrets.withLock { $0 }
            #expect(secrets.count >= 15)
            var haystacks = server.replies + evidence.seen.withLock { $0 }
            haystacks += databaseFiles(server)
            haystacks += server.app.securityLogLines.map { Data($0.utf8) }
            // The control: the phone's own inbox shows codes, so the scan must find them there.
            let inbox = try await server.call("GET", "/v1/dev/handsets/%2B99012345610/inbox", keep: false).body
            #expect(!hits(in: inbox, secrets).isEmpty)
            let mailbox = try await server.call("GET", "/v1/dev/mailboxes/\(Self.address)/inbox", keep: false).body
            #expect(!hits(in: mailbox, secrets).isEmpty, "the mailbox shows its code")
            for (index, haystack) in haystacks.enumerated() {
                for secret in hits(in: haystack, secrets) {
                    Issue.record("a secret (\(secret.count) characters) leaked into haystack \(index)")
                }
            }
            #expect(haystacks.count > 30)
        }
    }

    private func hits(in haystack: Data, _ secrets: Set<String>) -> [String] {
        secrets.filter { haystack.range(of: Data($0.utf8)) != nil }
    }

    private func databaseFiles(_ server: TimelineCalls) -> [Data] {
        let files = ["", "-wal", "-shm"].compactMap { FileManager.default.contents(atPath: server.dbPath + $0) }
        return files
    }

    /// Starts a flow with an SSE subscriber, noting the number and token as secrets.
    private func begin(_ server: TimelineCalls, _ evidence: Evidence, _ number: String,
                       workflow: [String] = ["sms", "voice"]) async throws -> (String, TimelineSSEProbe) {
        let (id, token) = try await server.start(number, workflow: workflow)
        evidence.secret(number)
        evidence.secret(String(number.dropFirst()))
        evidence.secret(token)
        evidence.secret(String(token.dropFirst(3)))
        return (id, TimelineSSEProbe(server.baseURL, id: id))
    }

    private func latestCode(_ server: TimelineCalls, _ evidence: Evidence, _ number: String) async throws -> String {
        let code = try #require(try await server.codes(number).last)
        evidence.secret(code)
        return code
    }

    /// Waits for the summary, then keeps the stream and the export.
    private func end(_ server: TimelineCalls, _ evidence: Evidence, _ id: String, _ probe: TimelineSSEProbe) async throws {
        let messages = try await probe.messages { $0.label == "verification:summary" }
        #expect(messages.last?.label == "verification:summary")
        evidence.saw(Data(probe.received.utf8))
        try await server.call("GET", "/v1/verifications/\(id)/timeline")
        try await server.call("GET", "/v1/verifications/\(id)")
        try await server.call("GET", "/v1/verifications/\(id)/events")
    }

    private func check(_ server: TimelineCalls, _ id: String, _ code: String) async throws {
        try await server.call("POST", "/v1/verifications/\(id)/check", json: "{\"code\":\"\(code)\"}")
    }

    private func smsCompleted(_ server: TimelineCalls, _ evidence: Evidence) async throws {
        let number = "+99012345610"
        let (id, probe) = try await begin(server, evidence, number)
        try await check(server, id, try await latestCode(server, evidence, number))
        try await end(server, evidence, id, probe)
    }

    private func wrongCodesThenCompleted(_ server: TimelineCalls, _ evidence: Evidence) async throws {
        let number = "+99012345612"
        let (id, probe) = try await begin(server, evidence, number)
        let code = try await latestCode(server, evidence, number)
        for wrong in ["000000", "111111", "222222"] where wrong != code { try await check(server, id, wrong) }
        try await server.call("POST", "/v1/verifications/\(id)/events", json: "{\"label\":\"device:typed\",\"note\":\"typed \(code) for \(number)\"}",
                              headers: ["Authorization": "Bearer wrong"])
        try await check(server, id, code)
        try await end(server, evidence, id, probe)
    }

    private func voiceAfterTimeout(_ server: TimelineCalls, _ evidence: Evidence) async throws {
        let number = "+99012345614"
        let (id, probe) = try await begin(server, evidence, number)
        _ = try await latestCode(server, evidence, number)
        _ = try await probe.messages { $0.label == "sms:code_sent" }
        server.clock.advance(by: 60)
        _ = try await probe.messages { $0.label == "voice:code_sent" }
        try await check(server, id, try await latestCode(server, evidence, number))
        try await end(server, evidence, id, probe)
    }

    private func cancelled(_ server: TimelineCalls, _ evidence: Evidence) async throws {
        let number = "+99012345616"
        let (id, probe) = try await begin(server, evidence, number)
        _ = try await latestCode(server, evidence, number)
        try await server.call("POST", "/v1/verifications/\(id)/next")
        _ = try await latestCode(server, evidence, number)
        try await server.call("DELETE", "/v1/verifications/\(id)")
        try await end(server, evidence, id, probe)
    }

    private func expired(_ server: TimelineCalls, _ evidence: Evidence) async throws {
        let number = "+99012345618"
        let (id, probe) = try await begin(server, evidence, number, workflow: ["sms"])
        _ = try await latestCode(server, evidence, number)
        _ = try await probe.messages { $0.label == "sms:code_sent" }
        server.clock.advance(by: 60)
        try await end(server, evidence, id, probe)
    }

    /// The silent path: the device follows the check_url over the cellular source
    /// address and gets the network's code; both the URL's secret and that code must
    /// stay out of everything but the device's own answer.
    private func silentFirst(_ server: TimelineCalls, _ evidence: Evidence) async throws {
        let number = "+99012345620"
        let (id, token, checkURL) = try await server.startSilent(number)
        evidence.secret(number)
        evidence.secret(String(number.dropFirst()))
        evidence.secret(token)
        evidence.secret(String(checkURL.split(separator: "/").last ?? ""))
        let probe = TimelineSSEProbe(server.baseURL, id: id)
        let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2")
        var next = URL(string: checkURL)!
        var answer: CellularResponse?
        var cookie: [String: String] = [:]
        for _ in 0..<10 {
            let response = try await cellular.send(CellularRequest(url: next, headers: cookie))
            if let set = response.header("set-cookie")?.split(separator: ";").first { cookie = ["Cookie": String(set)] }
            guard (300..<400).contains(response.status), let location = response.header("location") else { answer = response; break }
            next = URL(string: location, relativeTo: next)!.absoluteURL
        }
        let body = try #require(answer.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] })
        let code = try #require(body["code"] as? String)
        evidence.secret(code)
        try await check(server, id, code)
        try await end(server, evidence, id, probe)
    }

    static let address = "scan.person@example.net"

    /// An sms step, then an email step whose code is read from the dev mailbox: a wrong code, a
    /// start refused for a malformed address, then the right code. Neither the address (nor its
    /// local part) nor the code may show anywhere but the mailbox.
    private func emailAfterSMS(_ server: TimelineCalls, _ evidence: Evidence) async throws {
        let number = "+99012345622"
        evidence.secret(Self.address)
        evidence.secret("scan.person")
        let refused = try await server.call("POST", "/v1/verifications", json: """
            {"phone_number":"+99012345624","workflow":[{"channel":"email","to":"scan.person@@example.net"}]}
            """)
        #expect(refused.status == 422)
        let reply = try await server.call("POST", "/v1/verifications", json: """
            {"phone_number":"\(number)","workflow":[{"channel":"sms"},{"channel":"email","to":"\(Self.address)"}]}
            """, keep: false)
        let id = try #require(reply.string("request_id"))
        let token = try #require(reply.string("client_token"))
        evidence.secret(number)
        evidence.secret(String(number.dropFirst()))
        evidence.secret(token)
        evidence.secret(String(token.dropFirst(3)))
        let probe = TimelineSSEProbe(server.baseURL, id: id)
        _ = try await latestCode(server, evidence, number)
        try await server.call("POST", "/v1/verifications/\(id)/next")
        _ = try await probe.messages { $0.label == "email:code_sent" }
        let mail = try await server.call("GET", "/v1/dev/mailboxes/\(Self.address)/inbox", keep: false)
        let body = try #require((mail.json["messages"] as? [[String: Any]])?.last?["body"] as? String)
        let code = try #require(body.split(whereSeparator: { !$0.isNumber }).last.map(String.init))
        evidence.secret(code)
        try await check(server, id, code == "000000" ? "111111" : "000000")
        try await check(server, id, code)
        try await end(server, evidence, id, probe)
    }
}
