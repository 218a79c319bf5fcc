import Foundation
@testable import TacitFaceTwilio
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Who may call the Twilio face, and what bad input gets: Twilio's codes, never a 5xx,
/// and nothing started.
@Suite("Twilio face: credentials and bad input", .timeLimit(.minutes(1)))
struct TwilioFaceAuthTests {
    static let number = "+99012345672"

    @Test("no credential, a wrong token, an unknown account, a Bearer key and a revoked application all get one 401 20003 with the Basic challenge")
    func badCredentials() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let revoked = try await TwilioCalls.make(app, keyless, name: "Gone")
            guard let store = app.store as? any TacitStore.ApplicationStore else { Issue.record("no application store"); return }
            _ = try await store.revokeApplication(id: revoked.application.id, at: Date())
            let tries: [(String, TestResponse)] = [
                ("none", try await keyless.send("POST", twilio.service + "/Verifications", body: Data("To=%2B99012345672&Channel=sms".utf8),
                                                headers: ["Content-Type": "application/x-www-form-urlencoded"])),
                ("wrong token", try await twilio.with(authToken: String(repeating: "0", count: 32)).start(Self.number)),
                ("unknown account", try await twilio.with(accountSid: "AC" + String(repeating: "0", count: 32)).start(Self.number)),
                ("bearer", try await keyless.bearer(twilio.apiKey).send("GET", twilio.service + "/Verifications/VE" + String(repeating: "0", count: 32))),
                ("revoked", try await revoked.start(Self.number)),
            ]
            for (name, reply) in tries {
                #expect(reply.status == 401, "\(name)")
                #expect(reply.json["code"] as? Int == 20003, "\(name)")
                #expect(reply.header("www-authenticate") == #"Basic realm="Twilio API""#, "\(name)")
                #expect(reply.body == tries[0].1.body, "\(name): one answer for every bad credential")
            }
            #expect(try await keyless.latestCode(Self.number) == nil, "nothing was sent")
        }
    }

    @Test("a good credential on another application's service sid, or on one that doesn't exist, gets 404 20404 and starts nothing")
    func wrongService() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let a = try await TwilioCalls.make(app, keyless, name: "Alpha")
            let b = try await TwilioCalls.make(app, keyless, name: "Bravo")
            for service in [b.serviceSid, "VA" + String(repeating: "f", count: 32)] {
                let reply = try await a.with(serviceSid: service).start(Self.number)
                #expect(reply.status == 404 && reply.json["code"] as? Int == 20404, "\(reply.text)")
                #expect(reply.json["message"] as? String == "The requested resource /Services/\(service)/Verifications was not found")
            }
            #expect(try await keyless.latestCode(Self.number) == nil)
        }
    }

    @Test("bad input gets 400 with Twilio's code and names the parameter, never a 5xx, and sends nothing",
          arguments: [
            ("Channel=sms", 60200, "Invalid parameter: To"),
            ("To=%2B99012345672", 60200, "Invalid parameter: Channel"),
            ("To=%2B99012345672&Channel=email", 60200, "Invalid parameter: To"),
            ("To=person%40localhost&Channel=email", 60200, "Invalid parameter: To"),
            ("To=%2B99012345672&Channel=pigeon", 60200, "Invalid parameter: Channel"),
            ("To=not-a-number&Channel=sms", 60200, "Invalid parameter `To`"),
            ("To=%2B99012345672&Channel=sms&Locale=e", 60200, "Invalid parameter: Locale"),
            ("To=%2B99012345672&Channel=sms&CustomCode=123456", 60204, "Service does not support this feature"),
            ("To=%ZZ&Channel=sms", 60200, "Invalid parameter: the body must be application/x-www-form-urlencoded"),
          ])
    func badStart(_ body: String, _ code: Int, _ message: String) async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let reply = try await twilio.post(twilio.service + "/Verifications", raw: body)
            #expect(reply.status == 400, "\(reply.text)")
            #expect(reply.json["code"] as? Int == code && reply.json["message"] as? String == message, "\(reply.text)")
            #expect(!reply.text.contains("99012345672"), "an error never echoes the number")
            #expect(try await keyless.latestCode(Self.number) == nil)
        }
    }

    @Test("a check needs To or VerificationSid, a 4–10 character Code, and a code step when no Code is given")
    func badChecks() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            _ = try await twilio.start(Self.number)
            let noTarget = try await twilio.check(code: "123456")
            #expect(noTarget.status == 400 && noTarget.json["message"] as? String == "Invalid parameter: To")
            for code in ["123", "12345678901"] {
                let reply = try await twilio.check(to: Self.number, code: code)
                #expect(reply.status == 400 && reply.json["message"] as? String == "Invalid parameter: Code")
            }
            let noCode = try await twilio.check(to: Self.number)
            #expect(noCode.status == 400 && noCode.json["message"] as? String == "Invalid parameter: Code")
            let unknown = try await twilio.check(to: "+99012345674", code: "123456")
            #expect(unknown.status == 404 && unknown.json["code"] as? Int == 20404)
            let code = try #require(try await keyless.latestCode(Self.number))
            #expect(try await twilio.check(to: Self.number, code: code).json["status"] as? String == "approved",
                    "refused checks were no attempts")
        }
    }

    @Test("a method no face route takes gets 401 20003 without the credential, and 405 20004 with Allow behind it")
    func unroutedMethod() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let path = twilio.service + "/Verifications/VE" + String(repeating: "0", count: 32)
            let keyless = try await keyless.send("DELETE", path)
            #expect(keyless.status == 401 && keyless.json["code"] as? Int == 20003)
            let refused = try await twilio.client.send("DELETE", path, headers: ["Authorization": twilio.authorization])
            #expect(refused.status == 405 && refused.json["code"] as? Int == 20004, "\(refused.status) \(refused.text) \(refused.headers)")
            #expect(refused.header("allow")?.contains("GET") == true)
        }
    }

    @Test("the face's OpenAPI document is served, open, and lists the face's four operations")
    func openAPI() async throws {
        try await TestApplication.test(.inProcess) { _, keyless in
            let reply = try await keyless.get(TwilioRoutes.openAPIPath)
            #expect(reply.status == 200 && reply.header("content-type") == "application/json")
            let paths = try #require(reply.json["paths"] as? [String: [String: Any]])
            #expect(Set(paths.keys) == ["/v2/Services/{ServiceSid}/Verifications", "/v2/Services/{ServiceSid}/Verifications/{Sid}",
                                        "/v2/Services/{ServiceSid}/VerificationCheck"])
            #expect(paths.values.map(\.count).reduce(0, +) == 4)
        }
    }
}
