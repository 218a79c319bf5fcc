import Foundation
import Synchronization
import Testing
import TacitKit
import TacitOperator

/// The callback accepts a verdict only for the flow that opened it: from the device
/// that opened the check URL (its cookie), about that check's operator session, once.
/// Every refusal is a 4xx that leaves the verification as it was.
@Suite("The redirect chain: verdicts bound to their flow and device")
struct SilentVerdictBindingTests {
    /// The device's hops up to the callback: the check URL's cookie and the callback URL
    /// carrying the operator's verdict, not yet fetched.
    static func verdict(_ harness: SilentCalls, _ started: [String: Any]) async throws -> (callback: String, cookie: String) {
        let opened = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.cellular)
        let cookie = try #require(SilentCalls.cookie(opened))
        let gateway = try await harness.fetch(try #require(opened.header("location")), over: SilentCalls.cellular)
        return (try #require(gateway.header("location")), cookie)
    }

    @Test("a verdict brought to the callback by anyone but the device that opened the check URL is a 403 that changes nothing")
    func otherDevice() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let id = started["request_id"] as! String
            let (callback, cookie) = try await Self.verdict(harness, started)
            for transport in [SilentCalls.wifi, SilentCalls.cellular] {
                let stolen = try await harness.fetch(callback, over: transport)
                #expect(stolen.status == 403)
                #expect(SilentCalls.json(stolen.body)["type"] as? String == "silent-device-mismatch")
                #expect(SilentCalls.json(stolen.body)["code"] == nil)
            }
            #expect(try await harness.steps(id) == ["active", "unused", "unused"])
            let own = try await harness.fetch(callback, over: SilentCalls.cellular, cookie: cookie)
            let code = try #require(SilentCalls.json(own.body)["code"] as? String)
            #expect(try await harness.check(id, code: code).status == 200)
        }
    }

    @Test("the attacker who opened the check URL from Wi-Fi and sent the victim the real gateway link gets nothing: the victim's phone has no cookie")
    func forwardedGatewayLink() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let opened = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.wifi)
            let victim = try await harness.follow(try #require(opened.header("location")), over: SilentCalls.cellular)
            #expect(victim.status == 403)
            #expect(SilentCalls.json(victim.body)["type"] as? String == "silent-device-mismatch")
            #expect(try await harness.steps(started["request_id"] as! String) == ["active", "unused", "unused"])
        }
    }

    @Test("another check's cookie does not carry a verdict, and neither verification changes")
    func otherChecksCookie() async throws {
        try await SilentCalls.test { harness in
            let a = try await harness.start("+99012345670").body
            let b = try await harness.start("+99012345680").body
            let (callbackA, _) = try await Self.verdict(harness, a)
            let (_, cookieB) = try await Self.verdict(harness, b)
            let crossed = try await harness.fetch(callbackA, over: SilentCalls.cellular, cookie: cookieB)
            #expect(crossed.status == 403)
            #expect(SilentCalls.json(crossed.body)["type"] as? String == "silent-device-mismatch")
            for started in [a, b] { #expect(try await harness.steps(started["request_id"] as! String) == ["active", "unused", "unused"]) }
        }
    }

    @Test("a verdict replayed after its code was issued is a 410 check-url-used, and the code it first issued still completes")
    func replayedVerdict() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let id = started["request_id"] as! String
            let (callback, cookie) = try await Self.verdict(harness, started)
            let first = try await harness.fetch(callback, over: SilentCalls.cellular, cookie: cookie)
            let code = try #require(SilentCalls.json(first.body)["code"] as? String)
            let again = try await harness.fetch(callback, over: SilentCalls.cellular, cookie: cookie)
            #expect(again.status == 410)
            #expect(SilentCalls.json(again.body)["type"] as? String == "check-url-used")
            #expect(SilentCalls.json(again.body)["code"] == nil)
            #expect(try await harness.steps(id) == ["active", "unused", "unused"])
            #expect(try await harness.check(id, code: code).status == 200)
        }
    }

    @Test("a verdict signed with the operator's key but about another check's session, or forged, is a 403 that changes neither")
    func otherSessionOrForged() async throws {
        let key = OperatorConfiguration.key(fromSecret: "s3cret")
        try await SilentCalls.test(configure: { configuration, _ in configuration.operatorSecret = "s3cret" }) { harness in
            let a = try await harness.start("+99012345670").body
            let b = try await harness.start("+99012345680").body
            let openedA = try await harness.fetch(a["check_url"] as! String, over: SilentCalls.cellular)
            let gatewayA = try #require(openedA.header("location"))
            let sessionA = try #require(URL(string: gatewayA)?.lastPathComponent)
            let openedB = try await harness.fetch(b["check_url"] as! String, over: SilentCalls.cellular)
            let cookieB = try #require(SilentCalls.cookie(openedB))
            let stateB = try #require((b["check_url"] as? String)?.components(separatedBy: "/").last)
            let moved = OperatorAnswer(result: .match, session: sessionA, state: stateB, expires: harness.clock.now().addingTimeInterval(30))
            let forged = OperatorAnswer(result: .match, session: sessionA, state: stateB, expires: harness.clock.now().addingTimeInterval(30))
            for query in [moved.queryItems(key: key), forged.queryItems(key: Array("not the key".utf8))] {
                var callback = URLComponents(string: harness.base.absoluteString + "/v1/silent/callback")!
                callback.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) }
                let answer = try await harness.fetch(callback.string!, over: SilentCalls.cellular, cookie: cookieB)
                #expect(answer.status == 403)
                #expect(SilentCalls.json(answer.body)["type"] as? String == "operator-answer-invalid")
            }
            for started in [a, b] { #expect(try await harness.steps(started["request_id"] as! String) == ["active", "unused", "unused"]) }
        }
    }

    @Test("a callback without the device's cookie is refused before the reader is asked, so a provider's single-use code stays for the device")
    func readerNotAsked() async throws {
        let reader = ProviderSeamTests.CodeRedeemingReader(expectedNumber: "+99012345670")
        try await SilentCalls.test(configure: { _, dependencies in
            dependencies.silentAuth = ProviderSeamTests.AuthorizingProvider()
            dependencies.silentVerdicts = reader
        }) { harness in
            let started = try await harness.start("+99012345670").body
            let callback = try await ProviderSeamTests.callbackURL(harness, started: started, code: "auth_code_1")
            let stranger = try await harness.fetch(callback.url, over: SilentCalls.cellular)
            #expect(stranger.status == 403)
            #expect(SilentCalls.json(stranger.body)["type"] as? String == "silent-device-mismatch")
            #expect(reader.unspent.withLock { $0 } == ["auth_code_1"])
            let own = try await harness.fetch(callback.url, over: SilentCalls.cellular, cookie: callback.cookie)
            #expect(own.status == 200)
            #expect(reader.unspent.withLock { $0 }.isEmpty)
        }
    }

    @Test("the device cookie's value never reaches the timeline or the database file")
    func cookieNotKept() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let id = started["request_id"] as! String
            let (callback, cookie) = try await Self.verdict(harness, started)
            let own = try await harness.fetch(callback, over: SilentCalls.cellular, cookie: cookie)
            let code = try #require(SilentCalls.json(own.body)["code"] as? String)
            #expect(try await harness.check(id, code: code).status == 200)
            let value = try #require(cookie.split(separator: "=", maxSplits: 1).last.map(String.init))
            let events = try await harness.client.send("GET", "/v1/verifications/\(id)/events?after=0").body
            #expect(events.count > 0)
            #expect(events.range(of: Data(value.utf8)) == nil)
            var stored = Data()
            for suffix in ["", "-wal"] { stored += (try? Data(contentsOf: URL(fileURLWithPath: harness.databasePath + suffix))) ?? Data() }
            #expect(stored.count > 0)
            #expect(stored.range(of: Data(value.utf8)) == nil)
        }
    }

    @Test("the check URL's redirect sets an HttpOnly, SameSite=Lax cookie only the callback sees, ending with the check, and no cache keeps it")
    func cookieShape() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let opened = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.cellular)
            let line = try #require(opened.header("set-cookie"))
            let attributes = Set(line.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(attributes == ["Path=/v1/silent/callback", "Max-Age=60", "HttpOnly", "SameSite=Lax"])
            #expect(line.hasPrefix("tacit_silent_"))
            #expect(opened.header("cache-control") == "no-store")
        }
    }
}
