import Foundation
import Synchronization
import Testing
import TacitCore
import TacitTesting
@testable import TacitServer

@Suite("Completing a silent step at the provider that issued it")
struct SilentProviderCompletionTests {
    /// Answers every verdict request with `verdict` and keeps what it was asked.
    final class Verdicts: SilentProviderCheck, Sendable {
        let verdict: SilentProviderVerdict?
        private let asked = Mutex<[SilentSubmission]>([])
        init(_ verdict: SilentProviderVerdict?) { self.verdict = verdict }
        var submissions: [SilentSubmission] { asked.withLock { $0 } }
        func verdict(for submission: SilentSubmission) async -> SilentProviderVerdict? {
            asked.withLock { $0.append(submission) }
            return verdict
        }
    }

    static let number = "+447400123456"

    static func run(_ verdict: SilentProviderVerdict?, simSwap: String = "",
                    _ body: (TestClient, String, Verdicts) async throws -> Void) async throws {
        let truid = SilentProviderRouterTests.Scripted("truid", .failed(.noCoverage, events: []))
        let twilio = SilentProviderRouterTests.Scripted("twilio", SilentProviderRouterTests.issued("twilio"))
        let router = try SilentProviderRouterTests.router([truid, twilio])
        let twilioChecks = Verdicts(verdict), truidChecks = Verdicts(SilentProviderVerdict(result: .noMatch))
        try await TestApplication.test(.inProcess, configure: { _, dependencies in
            dependencies.silentAuth = router
            dependencies.silentProviderChecks = ["twilio": twilioChecks, "truid": truidChecks]
        }) { _, client in
            let start = #"{"phone_number":"\#(number)","workflow":[{"channel":"silent_auth"},{"channel":"sms"}]\#(simSwap)}"#
            let started = try await client.post("/v1/verifications", raw: start)
            #expect(started.status == 202)
            #expect(started.json["check_url"] as? String == "http://127.0.0.1:9/twilio")
            try await body(client, started.json["request_id"] as! String, twilioChecks)
            #expect(truidChecks.submissions.isEmpty, "completion asked a provider that did not issue the check")
        }
    }

    @Test("the check asks the provider that issued the challenge, with the reference recorded at begin, and its match completes")
    func matchCompletes() async throws {
        try await Self.run(SilentProviderVerdict(result: .match)) { client, id, checks in
            let answer = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"94dae426fg"}"#)
            #expect(answer.status == 200 && answer.json["status"] as? String == "completed")
            #expect(checks.submissions == [SilentSubmission(reference: "ref-twilio", deviceCode: "94dae426fg", phoneNumber: Self.number)])
        }
    }

    @Test("a provider that hands the device nothing is checked with no code")
    func noCode() async throws {
        try await Self.run(SilentProviderVerdict(result: .match)) { client, id, checks in
            let answer = try await client.post("/v1/verifications/\(id)/check", raw: "{}")
            #expect(answer.status == 200)
            #expect(checks.submissions.first?.deviceCode == nil)
        }
    }

    @Test("a no-match rejects the silent step and the workflow moves on to SMS", arguments: [
        (SilentProviderVerdict(result: .noMatch), 403, "sim-mismatch"),
        (SilentProviderVerdict(result: .notCellular), 403, "device-not-cellular"),
        (nil, 409, "silent-provider-unavailable"),
    ])
    func failureMovesOn(verdict: SilentProviderVerdict?, status: Int, type: String) async throws {
        try await Self.run(verdict) { client, id, _ in
            let answer = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"94dae426fg"}"#)
            #expect(answer.status == status && answer.json["type"] as? String == type)
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.json["channel"] as? String == "sms")
        }
    }

    @Test("a changed SIM sets risk.sim_swapped; under a block policy it fails the verification")
    func simChange() async throws {
        try await Self.run(SilentProviderVerdict(result: .match, simChanged: true)) { client, id, _ in
            _ = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"94dae426fg"}"#)
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.json["status"] as? String == "completed")
            #expect((state.json["risk"] as? [String: Any])?["sim_swapped"] as? Bool == true)
        }
        try await Self.run(SilentProviderVerdict(result: .match, simChanged: true),
                           simSwap: #","sim_swap":{"max_age_hours":240,"action":"block"}"#) { client, id, _ in
            _ = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"94dae426fg"}"#)
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.json["status"] as? String == "failed")
        }
    }

    @Test("a second check after completion changes nothing and asks no provider again")
    func onceOnly() async throws {
        try await Self.run(SilentProviderVerdict(result: .match)) { client, id, checks in
            _ = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"94dae426fg"}"#)
            let again = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"94dae426fg"}"#)
            #expect(again.status == 409)
            #expect(checks.submissions.count == 1)
        }
    }

    static func events(_ client: TestClient, _ id: String) async throws -> [[String: Any]] {
        try await client.get("/v1/verifications/\(id)/events?after=0").json["events"] as? [[String: Any]] ?? []
    }

    @Test("a code the provider refuses is invalid-code with the attempts left, not a SIM mismatch; the spent step moves on")
    func wrongCode() async throws {
        try await Self.run(SilentProviderVerdict(result: .wrongCode)) { client, id, _ in
            let answer = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"forged99"}"#)
            #expect(answer.status == 400 && answer.json["type"] as? String == "invalid-code")
            #expect((answer.json["attempts_remaining"] as? Int ?? 0) >= 1)
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.json["channel"] as? String == "sms")
            #expect((state.json["workflow"] as? [[String: Any]])?.first?["status"] as? String == "failed")
            let events = try await Self.events(client, id)
            let ended = events.first { ($0["data"] as? [String: Any])?["reason"] as? String == "too_many_attempts" }
            #expect(ended?["channel"] as? String == "silent_auth")
            let verdict = events.first { $0["label"] as? String == "silent_auth:provider_verdict" }
            #expect((verdict?["data"] as? [String: Any])?["result"] as? String == "wrong_code")
            #expect(!events.contains { $0["label"] as? String == "silent_auth:sim_match" })
        }
    }

    @Test("the provider is asked about the SIM-swap window the verification asked for, and the timeline names it")
    func simSwapWindow() async throws {
        let verdict = SilentProviderVerdict(result: .match, simChanged: false, simChangeWindowMinutes: 60)
        try await Self.run(verdict, simSwap: #","sim_swap":{"max_age_hours":1,"action":"block"}"#) { client, id, checks in
            let answer = try await client.post("/v1/verifications/\(id)/check", raw: #"{"code":"94dae426fg"}"#)
            #expect(answer.status == 200)
            #expect(checks.submissions.first?.simSwapMaxAgeHours == 1)
            let events = try await Self.events(client, id)
            let hop = events.first { $0["label"] as? String == "silent_auth:provider_verdict" }
            #expect((hop?["data"] as? [String: Any])?["sim_change_window_minutes"] as? Int == 60)
            #expect((hop?["note"] as? String)?.contains("within the last 60 minutes") == true)
        }
    }
}
