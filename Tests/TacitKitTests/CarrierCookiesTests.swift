import Foundation
import Testing
@testable import TacitKit

/// The redirect chain's cookies: back to the host that set them, on their path, and
/// over https only when `Secure`.
@Suite("Carrier cookies on the silent redirect chain")
struct CarrierCookiesTests {
    static func response(_ cookie: String) -> CellularResponse {
        CellularResponse(status: 302, headers: ["Set-Cookie": cookie, "Location": "/next"])
    }

    @Test("a cookie goes back only to its host and port, on its path")
    func hostAndPath() {
        var jar = CarrierCookies()
        jar.store(from: Self.response("tacit_silent_x=v1; Path=/v1/silent/callback; HttpOnly; SameSite=Lax"),
                  for: URL(string: "http://127.0.0.1:8080/v1/silent/checks/cu_1")!)
        #expect(jar.header(for: URL(string: "http://127.0.0.1:8080/v1/silent/callback?state=s")!) == "tacit_silent_x=v1")
        #expect(jar.header(for: URL(string: "http://127.0.0.1:8080/operator/gateway/g")!) == nil)
        #expect(jar.header(for: URL(string: "http://127.0.0.1:9/v1/silent/callback")!) == nil)
        #expect(jar.header(for: URL(string: "http://127.0.0.2:8080/v1/silent/callback")!) == nil)
        #expect(jar.header(for: URL(string: "http://127.0.0.1:8080/v1/silent/callbacks")!) == nil)
    }

    @Test("a Secure cookie never goes over plain http, Max-Age=0 deletes one, and a second value replaces the first")
    func attributes() {
        let url = URL(string: "https://tacit.test/v1/silent/checks/cu_1")!
        var jar = CarrierCookies()
        jar.store(from: Self.response("a=1; Path=/; Secure"), for: url)
        #expect(jar.header(for: URL(string: "http://tacit.test/x")!) == nil)
        #expect(jar.header(for: URL(string: "https://tacit.test/x")!) == "a=1")
        jar.store(from: Self.response("a=2; Path=/; Secure"), for: url)
        #expect(jar.header(for: URL(string: "https://tacit.test/x")!) == "a=2")
        jar.store(from: Self.response("a=; Path=/; Max-Age=0"), for: url)
        #expect(jar.header(for: URL(string: "https://tacit.test/x")!) == nil)
    }
}
