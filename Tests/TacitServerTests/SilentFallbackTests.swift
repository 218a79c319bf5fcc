import Foundation
import Testing
import TacitKit
import TacitOperator
import TacitCore
import TacitTesting

/// Fallback from silent auth, SIM swap policy, the dev handset route, and the
/// operator running as a separate network.
@Suite("Silent auth fallback, SIM swap and the operator as its own network")
struct SilentFallbackTests {
    @Test("the cascade silent_auth → sms → voice runs on the server's clock and ends expired")
    func cascade() async throws {
        try await SilentCalls.test { harness in
            let id = try await harness.start("+99012345697").body["request_id"] as! String
            await harness.advance(id, until: "sms:code_sent")
            #expect(try await harness.steps(id) == ["expired", "active", "unused"])
            await harness.advance(id, until: "voice:code_sent")
            #expect(try await harness.steps(id) == ["expired", "expired", "active"])
            await harness.advance(id, until: "verification:summary")
            #expect(try await harness.state(id)["status"] as? String == "expired")
        }
    }

    @Test("a rejected silent step falls back to SMS, and the code from the handset inbox completes it")
    func smsAfterRejection() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345671").body
            let id = started["request_id"] as! String
            _ = try await harness.follow(started["check_url"] as! String, over: SilentCalls.cellular)
            let inbox = try await harness.call("GET", "v1/dev/handsets/+99012345671/inbox").body
            let message = try #require((inbox["messages"] as? [[String: Any]])?.last?["body"] as? String)
            let code = try #require(message.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }.map(String.init))
            #expect(try await harness.check(id, code: code).status == 200)
            #expect(try await harness.steps(id) == ["rejected", "completed", "unused"])
        }
    }

    @Test("SIM swap with action block fails the verification before anything is sent")
    func simSwapBlocks() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345696", extra: #","sim_swap":{"max_age_hours":240,"action":"block"}"#).body
            #expect(started["status"] as? String == "failed")
            #expect(started["check_url"] == nil)
            #expect((started["risk"] as? [String: Any])?["sim_swapped"] as? Bool == true)
        }
    }

    @Test("SIM swap answers false for a number whose SIM did not change, or changed before max_age_hours")
    func simSwapClean() async throws {
        try await SilentCalls.test { harness in
            let clean = try await harness.start("+99012345670", extra: #","sim_swap":{"action":"block"}"#).body
            #expect((clean["risk"] as? [String: Any])?["sim_swapped"] as? Bool == false)
            #expect(clean["status"] as? String == "pending")
            let older = try await harness.start("+99012345696", extra: #","sim_swap":{"max_age_hours":1,"action":"block"}"#).body
            #expect((older["risk"] as? [String: Any])?["sim_swapped"] as? Bool == false)
        }
    }

    @Test("the dev handset route plays the modem: cellular submits, Wi-Fi reports device_not_cellular")
    func devHandset() async throws {
        try await SilentCalls.test { harness in
            for (number, path, expected) in [("+99012345670", "cellular", "submitted"), ("+99012345680", "wifi", "client_error")] {
                let started = try await harness.start(number).body
                let body = #"{"request_id":"\#(started["request_id"]!)","check_url":"\#(started["check_url"]!)","client_token":"\#(started["client_token"]!)","path":"\#(path)"}"#
                let answer = try await harness.call("POST", "v1/dev/handsets/\(number)/silent-check", body: body)
                #expect(answer.status == 200)
                #expect(answer.body["result"] as? String == expected)
                #expect(answer.body["code"] == nil)
                if path == "wifi" { #expect(answer.body["name"] as? String == "device_not_cellular") }
            }
        }
    }

    @Test("with the operator on its own port and a shared secret, the redirect chain crosses networks and completes")
    func separateNetwork() async throws {
        let clock = ManualClock()
        let network = VirtualOperator(configuration: OperatorConfiguration(signingKey: OperatorConfiguration.key(fromSecret: "s3cret")),
                                      clock: clock)
        let server = OperatorServer(network: network)
        try server.start()
        try await SilentCalls.test(clock: clock, configure: { configuration, dependencies in
            configuration.operatorSecret = "s3cret"
            dependencies.silentAuth = network
        }) { harness in
            let started = try await harness.start("+99012345670").body
            let hop = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.cellular)
            #expect(hop.header("location")?.hasPrefix(server.baseURL + "/operator/gateway/") == true)
            #expect(await harness.runDevice(try await harness.start("+99012345672").body, over: SilentCalls.cellular) == .submitted)
        }
        await server.shutdown()
    }
}
