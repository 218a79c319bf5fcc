import Foundation
@testable import TacitServer
import TacitTesting
import Testing

/// The end user's address (docs/security.md#the-end-users-address): a start's `device_ip`
/// (the Twilio face's `DeviceIp`) is what the per-address limit counts, and the address of an
/// authenticated caller, the app's backend that all its users share, never refuses a start.
@Suite("Fraud: the end user's address", .timeLimit(.minutes(1)))
struct FraudDeviceAddressTests {
    /// Two starts an hour per address, so the third from one address shows the limit.
    static func limited(_ configuration: inout ServerConfiguration, _: inout TacitApplication.Dependencies) {
        configuration.security.verificationsPerAddress = .init(2, per: 3_600)
        configuration.security.limitLoopbackInDev = true
    }

    static func number(_ index: Int) -> String { "+4479111\(23_450 + index * 101)" }

    @Test("an authenticated backend's starts are never refused for its own address, however many")
    func backendAddressNeverRefuses() async throws {
        try await TestApplication.test(.inProcess, configure: Self.limited) { app, keyless in
            let calls = try await TwilioCalls.make(app, keyless.from("198.51.100.20"))
            let client = calls.client.bearer(calls.apiKey)
            for index in 0..<4 {
                let reply = try await client.start(Self.number(index), channels: ["sms"]).reply
                #expect(reply.status == 202, "\(reply.text)")
            }
            #expect(try await calls.start(Self.number(4)).status == 201)
        }
    }

    @Test("without --dev as well, a keyed backend's own address never refuses its users' starts")
    func backendAddressNeverRefusesOutsideDev() async throws {
        try await SecurityCalls.test(dev: false, configure: {
            $0.security.verificationsPerAddress = .init(2, per: 3_600)
        }) { server in
            let key = try await server.makeKey()
            for index in 0..<4 {
                let reply = try await server.start(Self.number(index), workflow: ["sms"], token: key)
                #expect(reply.status == 202, "\(reply.text)")
            }
        }
    }

    @Test("device_ip is counted per end user: the third start from one device is refused, another device starts")
    func deviceAddressIsCounted() async throws {
        try await TestApplication.test(.inProcess, configure: Self.limited) { app, keyless in
            let calls = try await TwilioCalls.make(app, keyless.from("198.51.100.20"))
            let client = calls.client.bearer(calls.apiKey)
            func start(_ index: Int, _ device: String) async throws -> TestResponse {
                try await client.start(Self.number(index), channels: ["sms"], extra: ["device_ip": device]).reply
            }
            #expect(try await start(0, "203.0.113.7").status == 202)
            #expect(try await start(1, "203.0.113.7").status == 202)
            // The same device written as an IPv4-mapped IPv6 address is the same device.
            let third = try await start(2, "::ffff:203.0.113.7")
            #expect(third.status == 429 && third.string("type")?.hasSuffix("rate-limited") == true, "\(third.text)")
            #expect(try await start(3, "2001:db8::7").status == 202)
            #expect(app.sender.messages.count == 3)
            #expect(app.securityLogLines.contains { $0.contains("address_limit") })
        }
    }

    @Test("through the Twilio face, DeviceIp is counted as device_ip is, and the backend's address is not")
    func twilioDeviceIp() async throws {
        try await TestApplication.test(.inProcess, configure: Self.limited) { app, keyless in
            let calls = try await TwilioCalls.make(app, keyless.from("198.51.100.20"))
            func start(_ index: Int, _ device: String) async throws -> TestResponse {
                try await calls.post(calls.service + "/Verifications",
                                     [("To", Self.number(index)), ("Channel", "sms"), ("DeviceIp", device)])
            }
            #expect(try await start(0, "203.0.113.9").status == 201)
            #expect(try await start(1, "203.0.113.9").status == 201)
            let third = try await start(2, "203.0.113.9")
            #expect(third.status == 429, "\(third.text)")
            #expect(try await start(3, "203.0.113.10").status == 201)
            #expect(try await calls.start(Self.number(4)).status == 201)
        }
    }

    @Test("a device_ip or risk_check that isn't one is refused 422 on /v1 and 400 60200 through the Twilio face",
          arguments: ["localhost", "203.0.113.300", "fe80::1%eth0", "203.0.113.7:443", ""])
    func invalidDeviceAddress(device: String) async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let reply = try await client.start(Self.number(0), extra: ["device_ip": device]).reply
            #expect(reply.status == 422, "\(reply.text)")
            let problems = reply.json["invalid_parameters"] as? [[String: Any]] ?? []
            let names = problems.compactMap { $0["name"] as? String }
            #expect(names == ["device_ip"])
            let calls = try await TwilioCalls.make(app, client)
            let twilio = try await calls.post(calls.service + "/Verifications",
                                              [("To", Self.number(0)), ("Channel", "sms"), ("DeviceIp", device)])
            #expect(twilio.status == 400 && twilio.json["code"] as? Int == 60200, "\(twilio.text)")
            #expect(app.sender.messages.isEmpty)
        }
    }

    @Test("risk_check takes enable or disable only")
    func invalidRiskCheck() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let reply = try await client.start(Self.number(0), extra: ["risk_check": "off"]).reply
            #expect(reply.status == 422, "\(reply.text)")
            let calls = try await TwilioCalls.make(app, client)
            let twilio = try await calls.post(calls.service + "/Verifications",
                                              [("To", Self.number(0)), ("Channel", "sms"), ("RiskCheck", "off")])
            #expect(twilio.status == 400 && twilio.json["code"] as? Int == 60200, "\(twilio.text)")
            #expect(try await client.start(Self.number(1), extra: ["risk_check": "enable"]).reply.status == 202)
        }
    }

    @Test("addresses are read into one spelling", arguments: [
        ("203.0.113.7", "203.0.113.7"), ("::ffff:203.0.113.7", "203.0.113.7"), ("2001:DB8:0:0::7", "2001:db8::7"),
        ("::1", "::1"),
    ])
    func canonical(text: String, expected: String) {
        #expect(DeviceAddress.normalized(text) == expected)
    }
}
