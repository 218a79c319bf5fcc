import Foundation
import TacitCLI
import Testing
import TacitTesting

/// `tacit verify`, run in process against a live dev test server: the app and the device
/// against the virtual operator, codes typed into its input or read from the handset inbox.
@Suite("tacit verify", .timeLimit(.minutes(1)))
struct VerifyCommandTests {
    /// A live dev server for one test. Its clock starts at the real time, as the device
    /// bounds its silent check by the server's `expires_at`.
    static func withServer(_ body: (String, TestClient) async throws -> Void) async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await TestApplication.test(.live, clock: clock) { app, client in try await body(app.baseURL, client) }
    }

    /// No full number, client token or inbox code in what the command printed.
    static func expectNoSecrets(_ run: CommandRun, number: String, codes: [String] = []) {
        let text = run.out + run.err
        #expect(!text.contains(number) && !text.contains(String(number.dropFirst())))
        let token = #"(^|[^A-Za-z0-9_-])ct_[A-Za-z0-9_-]{20,}"#
        #expect(text.range(of: token, options: .regularExpression) == nil, "a client token")
        for code in codes { #expect(!text.contains(code)) }
        #expect(text.contains("+99•••••" + number.suffix(4)) || text.isEmpty || run.out.hasPrefix("{"))
    }

    @Test("an even +990 number completes silently over the cellular path: exit 0")
    func silent() async throws {
        try await Self.withServer { base, _ in
            let run = await CommandRun.of(["verify", "+99012345670", "--server", base])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("SILENT AUTH ✓  ›  SMS ·  ›  VOICE ·"))
            #expect(run.out.contains("silent_auth:completed") && run.out.contains("verification:summary"))
            Self.expectNoSecrets(run, number: "+99012345670")
        }
    }

    @Test("a rejected SIM falls back to SMS and --auto-code completes it: exit 0")
    func autoCode() async throws {
        try await Self.withServer { base, client in
            let run = await CommandRun.of(["verify", "+99012345671", "--auto-code"],
                                          environment: ["TACIT_SERVER": base])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("SILENT AUTH ✗  ›  SMS ✓  ›  VOICE ·"))
            #expect(run.out.contains("silent_auth:rejected"))
            Self.expectNoSecrets(run, number: "+99012345671", codes: try await client.inboxCodes("+99012345671"))
        }
    }

    @Test("from Wi-Fi the silent check fails and the flow completes by SMS",
          arguments: ["+99012345699", "+99012345670"])
    func wifi(number: String) async throws {
        try await Self.withServer { base, client in
            let run = await CommandRun.of(["verify", number, "--server", base, "--wifi", "--auto-code"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("SMS ✓"))
            #expect(run.out.contains("device_not_cellular")
                    || run.out.contains("answered the coverage check with an internal error"))
            Self.expectNoSecrets(run, number: number, codes: try await client.inboxCodes(number))
        }
    }

    @Test("a code typed at the prompt completes; a wrong one says how many attempts are left")
    func typedCode() async throws {
        try await Self.withServer { base, client in
            let number = "+99012345673"
            let verify = RunningCommand(["verify", number, "--server", base])
            try await verify.output(showing: "Enter the code sent by SMS")
            let code = try #require(try await client.latestCode(number))
            verify.input.send(code == "000000" ? "111111" : "000000")
            try await verify.output(showing: "attempts left")
            verify.input.send(code)
            let run = await verify.finish()
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("SMS ✓"))
            Self.expectNoSecrets(run, number: number, codes: [code])
        }
    }

    @Test("input that ends at the prompt cancels the verification: exit 1 with the reason")
    func inputEnds() async throws {
        try await Self.withServer { base, client in
            let verify = RunningCommand(["verify", "+99012345677", "--server", base])
            let seen = try await verify.output(showing: "Enter the code sent by SMS")
            let id = try #require(seen.split(separator: " ").first { $0.hasPrefix("vf_") }.map(String.init))
            verify.input.finish()
            let run = await verify.finish()
            #expect(run.status == 1)
            #expect(run.err.contains("no code was entered (input ended); the verification was cancelled"))
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "cancelled")
        }
    }

    @Test("an interruption at the code prompt cancels the verification and exits 130")
    func interrupt() async throws {
        try await Self.withServer { base, client in
            let verify = RunningCommand(["verify", "+99012345675", "--server", base])
            let seen = try await verify.output(showing: "Enter the code sent by SMS")
            let id = try #require(seen.split(separator: " ").first { $0.hasPrefix("vf_") }.map(String.init))
            verify.interrupt()
            let run = await verify.finish()
            #expect(run.status == 130)
            #expect(run.err.contains("interrupted; the verification was cancelled"))
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "cancelled")
        }
    }

    @Test("--json prints exactly one result object on stdout")
    func json() async throws {
        try await Self.withServer { base, _ in
            let run = await CommandRun.of(["verify", "+99012345672", "--server", base, "--json"])
            #expect(run.status == 0, "\(run.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            #expect(run.out.split(separator: "\n").count == 1)
            #expect(Set(object.keys) == ["request_id", "status", "channel", "workflow", "events"])
            #expect(object["status"] as? String == "completed" && object["channel"] as? String == "silent_auth")
            #expect((object["events"] as? Int ?? 0) > 5 && (object["workflow"] as? [Any])?.count == 3)
        }
    }

    @Test("wrong flags print usage to stderr and exit 2", arguments: [
        ["verify"], ["verify", "+99012345670", "--bogus"], ["verify", "12345"], ["verify", "a", "b"],
        ["verify", "+99012345670", "--workflow", "sms,fax"], ["verify", "+99012345670", "--code-length", "x"],
        ["verify", "+99012345670", "--wifi", "--interface", "wwan0"], ["verify", "+99012345670", "--server", "x"],
    ])
    func usage(arguments: [String]) async throws {
        let run = await CommandRun.of(arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit verify"))
        #expect(run.out.isEmpty)
    }

    @Test("an unreachable server exits 1 with a one-line reason")
    func unreachable() async throws {
        let run = await CommandRun.of(["verify", "+99012345670", "--server", "http://127.0.0.1:1", "--json"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.split(separator: "\n").count == 1 && run.err.contains("could not be reached"))
    }
}
