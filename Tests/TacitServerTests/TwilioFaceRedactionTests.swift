import Foundation
import Testing
@testable import TacitServer
import TacitTesting

/// What the Twilio face issues (codes, the auth token, the SNA check URL, full numbers and addresses)
/// never reaches the timeline, its export, an error, the security log or the database.
@Suite("Twilio face: redaction scan", .timeLimit(.minutes(1)))
struct TwilioFaceRedactionTests {
    @Test("a code flow with wrong codes, a re-send, a refused start, an SNA flow and an email flow leave no secret in events, exports, errors, logs or the database")
    func scan() async throws {
        try await SilentCalls.test { calls in
            let twilio = try await TwilioCalls.make(calls.app, calls.client)
            let number = "+99012345672", silent = "+99012345670"
            var secrets: Set<String> = [twilio.authToken, number, String(number.dropFirst()), silent, String(silent.dropFirst())]
            var seen: [Data] = []
            let first = try await twilio.start(number)
            let sid = try #require(first.json["sid"] as? String)
            secrets.insert(try #require(try await calls.client.latestCode(number)))
            // A resource answers its own application with its `to`, as Twilio's does; errors never name it.
            _ = try await twilio.check(to: number, code: "0000")
            _ = try await twilio.start(number, channel: "whatsapp")
            let code = try #require(try await calls.client.latestCode(number))
            secrets.insert(code)
            _ = try await twilio.check(to: number, code: code)
            seen.append(try await twilio.post(twilio.service + "/Verifications", raw: "To=%2B99012345672&Channel=pigeon").body)
            let sna = try await twilio.start(silent, channel: "sna")
            let url = try #require((sna.json["sna"] as? [String: Any])?["url"] as? String)
            secrets.insert(String(url.dropFirst(calls.app.baseURL.count + CheckURLIssuer.path.count)))
            _ = try await calls.follow(url, over: SilentCalls.cellular)
            seen.append(try await twilio.check(to: silent, code: "12").body)
            _ = try await twilio.check(to: silent)
            // By email: the address and its local part are as secret as a number.
            let address = "scan.person@example.com"
            secrets.formUnion([address, "scan.person"])
            let byEmail = try await twilio.start(address, channel: "email")
            let emailSid = try #require(byEmail.json["sid"] as? String)
            let mail = try #require(try await TwilioFaceEmailTests.mailbox(calls.client, address).last)
            secrets.insert(mail)
            _ = try await twilio.check(to: address, code: mail == "0000" ? "1111" : "0000")
            #expect(try await twilio.check(to: address, code: mail).json["status"] as? String == "approved")
            seen.append(try await twilio.start("scan.person@localhost", channel: "email").body)
            let reader = calls.client.bearer(twilio.apiKey)
            for id in [sid, try #require(sna.json["sid"] as? String), emailSid] {
                seen.append(try await reader.get("/v1/verifications/\(id)/events").body)
                seen.append(try await reader.get("/v1/verifications/\(id)/timeline").body)
            }
            seen.append(Data(calls.app.securityLogLines.joined(separator: "\n").utf8))
            seen += ["", "-wal"].compactMap { FileManager.default.contents(atPath: calls.databasePath + $0) }
            #expect(seen.contains { $0.range(of: Data("api:create".utf8)) != nil }, "the scan reads the timeline")
            for (index, haystack) in seen.enumerated() {
                for secret in secrets where haystack.range(of: Data(secret.utf8)) != nil {
                    Issue.record("a secret (\(secret.count) characters) leaked into haystack \(index)")
                }
            }
        }
    }
}
