import Foundation
import Testing
import TacitKit

/// Every row of the operator's table (docs/api.md#the-virtual-operators-numbers), with a real device on loopback.
@Suite("The virtual operator's table, end to end")
struct SilentOperatorTableTests {
    @Test("an even number completes silently from the cellular address, and the code is single-use")
    func evenCompletes() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let id = started["request_id"] as! String
            #expect(started["channel"] as? String == "silent_auth")
            let answer = try await harness.follow(started["check_url"] as! String, over: SilentCalls.cellular)
            #expect(answer.status == 200)
            let body = SilentCalls.json(answer.body)
            #expect(body["request_id"] as? String == id)
            let code = try #require(body["code"] as? String)
            #expect(try await harness.check(id, code: code).status == 200)
            #expect(try await harness.steps(id) == ["completed", "unused", "unused"])
            #expect(try await harness.check(id, code: code).status != 200)
        }
    }

    @Test("the SDK's device flow from 127.0.0.2 submits the code and completes the verification")
    func sdkCompletes() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345672").body
            #expect(await harness.runDevice(started, over: SilentCalls.cellular) == .submitted)
            #expect(try await harness.state(started["request_id"] as! String)["status"] as? String == "completed")
        }
    }

    @Test("an odd number is rejected: SIM mismatch, step rejected, SMS next")
    func oddRejected() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345671").body
            let result = await harness.runDevice(started, over: SilentCalls.cellular)
            #expect(result.clientErrorName == "sim_mismatch")
            let id = started["request_id"] as! String
            #expect(try await harness.steps(id) == ["rejected", "active", "unused"])
            #expect(try await harness.state(id)["channel"] as? String == "sms")
        }
    }

    @Test("…99 is a carrier error: the silent step fails at once and SMS starts, with no check_url")
    func carrierError() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345699").body
            #expect(started["check_url"] == nil)
            #expect(started["channel"] as? String == "sms")
            #expect(try await harness.steps(started["request_id"] as! String) == ["failed", "active", "unused"])
        }
    }

    @Test("…98 has no coverage: no check_url, and the verification starts on SMS")
    func noCoverage() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345698").body
            #expect(started["check_url"] == nil)
            #expect(started["channel"] as? String == "sms")
            #expect(try await harness.steps(started["request_id"] as! String) == ["failed", "active", "unused"])
        }
    }

    @Test("…97 never answers: the device gets no code, and the step times out by the server's clock")
    func neverAnswers() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345697").body
            let id = started["request_id"] as! String
            let result = await harness.runDevice(started, over: SilentCalls.cellular)
            #expect(result.clientErrorName == "carrier_timeout")
            #expect(try await harness.steps(id) == ["active", "unused", "unused"])
            await harness.advance(id, until: "silent_auth:timed_out")
            #expect(try await harness.steps(id) == ["expired", "active", "unused"])
        }
    }

    @Test("…96 completes, and a SIM swap check flags the swap 2 hours ago")
    func simSwappedCompletes() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345696", extra: #","sim_swap":{"max_age_hours":24,"action":"flag"}"#).body
            #expect((started["risk"] as? [String: Any])?["sim_swapped"] as? Bool == true)
            #expect(await harness.runDevice(started, over: SilentCalls.cellular) == .submitted)
            #expect(try await harness.state(started["request_id"] as! String)["status"] as? String == "completed")
        }
    }

    @Test("the same even number fetched from 127.0.0.1 (Wi-Fi) fails as device_not_cellular and falls back")
    func wifiFails() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let result = await harness.runDevice(started, over: SilentCalls.wifi)
            #expect(result.clientErrorName == "device_not_cellular")
            let id = started["request_id"] as! String
            #expect(try await harness.steps(id) == ["failed", "active", "unused"])
        }
    }
}
