import Foundation
import Testing
import TacitKit

/// The redirect-chain attack, played as the attacker plays it: he opens a check_url from
/// Wi-Fi, points the gateway link's `redirect_uri` at himself, has the victim's phone
/// open that link over cellular, and brings the operator's verdict to the callback.
@Suite("The redirect chain: the rewritten redirect_uri attack")
struct SilentRedirectAttackTests {
    static let attacker = "http://127.0.0.1:9/steal"

    @Test("a gateway link whose redirect_uri was rewritten sends no verdict anywhere, and the victim's verification never completes")
    func rewrittenRedirect() async throws {
        try await SilentCalls.test { harness in
            let started = try await harness.start("+99012345670").body
            let id = started["request_id"] as! String
            let opened = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.wifi)
            // He opened the check URL himself, so the device cookie is his: only the gateway's
            // fixed target keeps the verdict from him.
            let cookie = SilentCalls.cookie(opened)
            let gateway = try #require(opened.header("location"))
            let rewritten = Self.replacing("redirect_uri", with: Self.attacker, in: gateway)
            let victim = try await harness.fetch(rewritten, over: SilentCalls.cellular)
            #expect(victim.status == 400)
            #expect(SilentCalls.json(victim.body)["type"] as? String == "invalid-redirect-uri")
            #expect(victim.header("location") == nil)
            if let stolen = victim.header("location"), let query = URLComponents(string: stolen)?.query {
                let answer = try await harness.fetch(harness.base.absoluteString + "/v1/silent/callback?" + query,
                                                     over: SilentCalls.wifi, cookie: cookie)
                if let code = SilentCalls.json(answer.body)["code"] as? String { _ = try await harness.check(id, code: code) }
            }
            #expect(try await harness.state(id)["status"] as? String == "pending")
            #expect(try await harness.steps(id) == ["active", "unused", "unused"])
        }
    }

    /// `url` with its query item `name` set to `value`.
    static func replacing(_ name: String, with value: String, in url: String) -> String {
        var components = URLComponents(string: url)!
        components.queryItems = components.queryItems!.map { $0.name == name ? URLQueryItem(name: name, value: value) : $0 }
        return components.string!
    }
}
