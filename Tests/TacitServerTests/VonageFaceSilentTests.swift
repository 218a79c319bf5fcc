import Foundation
import Testing
@testable import TacitServer
import TacitTesting

/// The face's `check_url`, opened over the cellular path, runs the one silent flow and
/// ends in `200 {"request_id", "code"}` with the Vonage request id and a code Vonage's
/// check takes; the app completes with `POST /v2/verify/{id}`.
@Suite("Vonage face: silent auth", .timeLimit(.minutes(1)))
struct VonageFaceSilentTests {
    @Test("silent success: the check_url is Vonage's path, ends in the request id and a 10-letter code, and that code completes the check")
    func silentSuccess() async throws {
        try await SilentCalls.test { calls in
            let vonage = try await VonageFaceFixtures.make(calls.app).client(calls.client, app: calls.app)
            let started = try await vonage.start("99012345670", ["silent_auth", "sms"])
            #expect(started.status == 202)
            let id = try #require(started.string("request_id"))
            let url = try #require(started.string("check_url"))
            #expect(url.hasPrefix(calls.app.baseURL + "/v2/verify/\(id)/silent-auth/redirect?t="))
            let end = try await calls.follow(url, over: SilentCalls.cellular)
            #expect(end.status == 200)
            let answer = SilentCalls.json(end.body)
            #expect(answer["request_id"] as? String == id)
            let code = try #require(answer["code"] as? String)
            #expect(code.count == 10 && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            let checked = try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code])
            #expect(checked.status == 200)
            #expect(checked.string("status") == "completed")
        }
    }

    @Test("a silent-auth code gets one try, as Vonage documents: a wrong one is 410 at once, and the right one after it is 410 too")
    func silentCodeGetsOneTry() async throws {
        try await SilentCalls.test { calls in
            let vonage = try await VonageFaceFixtures.make(calls.app).client(calls.client, app: calls.app)
            let started = try await vonage.start("99012345670", ["silent_auth", "sms"])
            let id = try #require(started.string("request_id"))
            let end = try await calls.follow(try #require(started.string("check_url")), over: SilentCalls.cellular)
            let code = try #require(SilentCalls.json(end.body)["code"] as? String)
            let wrong = code == "AAAAAAAAAA" ? "BBBBBBBBBB" : "AAAAAAAAAA"
            let refused = try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": wrong])
            #expect(refused.status == 410)
            #expect(refused.string("detail") == "An incorrect code has been provided too many times. Workflow terminated.")
            #expect(try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code]).status == 410)
            let stored = try #require(try await calls.app.store.verification(id: id))
            #expect(stored.status == .failed && stored.failedAttempts == 1)
        }
    }

    // A single silent channel: a fallback would wait for its code's send on the test clock,
    // which the Python flow (`test_vonage_face_sdk.py`) covers over a real server instead.
    @Test("a rejected silent check fails its only channel, the check_url does not open twice, and a check is then 410")
    func silentRejected() async throws {
        try await SilentCalls.test { calls in
            let vonage = try await VonageFaceFixtures.make(calls.app).client(calls.client, app: calls.app)
            let started = try await vonage.start("99012345671", ["silent_auth"])
            let id = try #require(started.string("request_id"))
            let url = try #require(started.string("check_url"))
            let end = try await calls.follow(url, over: SilentCalls.cellular)
            #expect(end.status == 403)
            let stored = try #require(try await calls.app.store.verification(id: id))
            #expect(stored.status == .failed && stored.workflow.first?.status == .rejected)
            #expect(try await calls.fetch(url, over: SilentCalls.cellular).status == 412)
            #expect(try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": "1234"]).status == 410)
        }
    }

    @Test("a check_url whose token belongs to another request id is 404 and changes nothing")
    func tokenBoundToItsRequest() async throws {
        try await SilentCalls.test { calls in
            let vonage = try await VonageFaceFixtures.make(calls.app).client(calls.client, app: calls.app)
            let first = try await vonage.start("99012345670", ["silent_auth", "sms"])
            let second = try await vonage.start("99012345672", ["silent_auth", "sms"])
            let url = try #require(first.string("check_url"))
            let id = try #require(first.string("request_id")), other = try #require(second.string("request_id"))
            let moved = url.replacingOccurrences(of: "/v2/verify/\(id)/", with: "/v2/verify/\(other)/")
            #expect(try await calls.fetch(moved, over: SilentCalls.cellular).status == 404)
            #expect(try await calls.app.store.verification(id: id)?.codeHash == nil)
        }
    }
}
