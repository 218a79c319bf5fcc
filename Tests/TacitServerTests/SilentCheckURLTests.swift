import Foundation
import Testing
import TacitKit

/// The check_url's guarantees: single-use, expiring with its step, bound to its
/// verification, and every failure moving the workflow on with its reason.
@Suite("check_url: replay, expiry, finished steps and integrity")
struct SilentCheckURLTests {
    @Test("a second GET of the same check_url answers 410 check-url-used and fails the silent step")
    func replay() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let url = started["check_url"] as! String
            let first = try await harness.fetch(url, over: SilentCalls.cellular)
            #expect(first.status == 302)
            let second = try await harness.fetch(url, over: SilentCalls.cellular)
            #expect(second.status == 410)
            #expect(SilentCalls.json(second.body)["type"] as? String == "check-url-used")
            #expect(try await harness.steps(started["request_id"] as! String) == ["failed", "active", "unused"])
            let late = try await harness.follow(first.header("location")!, over: SilentCalls.cellular)
            #expect(late.status == 410)
        }
    }

    @Test("a check_url opened after the step's deadline answers 410 check-url-expired and the workflow moves on")
    func expired() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let id = started["request_id"] as! String
            await harness.advance(id, by: 61, until: "silent_auth:timed_out")
            let answer = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.cellular)
            #expect(answer.status == 410)
            #expect(SilentCalls.json(answer.body)["type"] as? String == "check-url-expired")
            #expect(try await harness.steps(id) == ["expired", "active", "unused"])
        }
    }

    @Test("a check_url whose step was skipped answers 410 check-url-inactive and changes nothing")
    func finishedStep() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let id = started["request_id"] as! String
            #expect(try await harness.call("POST", "v1/verifications/\(id)/next").status == 200)
            let answer = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.cellular)
            #expect(SilentCalls.json(answer.body)["type"] as? String == "check-url-inactive")
            #expect(try await harness.steps(id) == ["failed", "active", "unused"])
        }
    }

    @Test("a forged or truncated check_url answers 404 check-url-invalid")
    func forged() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let url = started["check_url"] as! String
            for bad in [String(url.dropLast(4)), url.replacingOccurrences(of: "/cu_", with: "/cu_A")] {
                let answer = try await harness.fetch(bad, over: SilentCalls.cellular)
                #expect(answer.status == 404)
                #expect(SilentCalls.json(answer.body)["type"] as? String == "check-url-invalid")
            }
            #expect(try await harness.steps(started["request_id"] as! String) == ["active", "unused", "unused"])
        }
    }

    @Test("a code from one verification never completes another, and the SDK refuses a foreign answer")
    func integrity() async throws {
        try await SilentCalls.test { harness in
            let a = try await harness.start("+99012345670").body
            let b = try await harness.start("+99012345680").body
            let idB = b["request_id"] as! String
            let answer = try await harness.follow(a["check_url"] as! String, over: SilentCalls.cellular)
            let codeA = try #require(SilentCalls.json(answer.body)["code"] as? String)
            #expect(try await harness.check(idB, code: codeA).status == 400)
            var crossed = b
            crossed["check_url"] = try await harness.start("+99012345690").body["check_url"]
            #expect(await harness.runDevice(crossed, over: SilentCalls.cellular).clientErrorName == "integrity_error")
            #expect(try await harness.state(idB)["status"] as? String == "pending")
        }
    }

    @Test("an operator answer moved to another check is refused: the signature binds it to its state")
    func movedAnswer() async throws {
        try await SilentCalls.test { harness in
            let a = try await harness.start("+99012345670").body
            let b = try await harness.start("+99012345680").body
            let hop = try await harness.fetch(a["check_url"] as! String, over: SilentCalls.cellular)
            let gateway = try await harness.fetch(hop.header("location")!, over: SilentCalls.cellular)
            var callback = URLComponents(string: gateway.header("location")!)!
            let tokenB = (b["check_url"] as! String).components(separatedBy: "/").last!
            callback.queryItems = callback.queryItems!.map { $0.name == "state" ? URLQueryItem(name: "state", value: tokenB) : $0 }
            let moved = try await harness.fetch(callback.string!, over: SilentCalls.cellular)
            #expect(moved.status == 403)
            #expect(SilentCalls.json(moved.body)["type"] as? String == "operator-answer-invalid")
            #expect(try await harness.steps(b["request_id"] as! String) == ["active", "unused", "unused"])
        }
    }

    @Test("the database file never holds a check_url secret, a silent code or a client token")
    func nothingAtRest() async throws {
        try await SilentCalls.test { harness in
            var secrets: [String] = []
            for number in ["+99012345670", "+99012345671", "+99012345672"] {
                let started = try await harness.start(number).body
                let url = started["check_url"] as! String
                secrets += [String(url.split(separator: "/").last!), started["client_token"] as! String]
                let answer = try await harness.follow(url, over: SilentCalls.cellular)
                if let code = SilentCalls.json(answer.body)["code"] as? String {
                    secrets.append(code)
                    _ = try await harness.check(started["request_id"] as! String, code: code)
                }
            }
            #expect(secrets.count == 8)
            var stored = Data()
            for suffix in ["", "-wal"] { stored += (try? Data(contentsOf: URL(fileURLWithPath: harness.databasePath + suffix))) ?? Data() }
            #expect(stored.count > 0)
            for secret in secrets { #expect(stored.range(of: Data(secret.utf8)) == nil) }
            #expect(stored.range(of: Data("99012345670".utf8)) == nil)
        }
    }
}
