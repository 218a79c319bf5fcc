import Foundation
import Testing
import TacitCore
import TacitHTTP
@testable import TacitServer
import TacitTesting

/// `--dev`'s keyless access is for callers on this machine that are not another site's
/// web page: a cross-site request, or one whose `Host` names another site (DNS
/// rebinding), gets 403 `dev-access-refused` and changes nothing.
@Suite("Dev mode: keyless access only for this server's own origin", .timeLimit(.minutes(1)))
struct DevAccessTests {
    static let start = #"{"phone_number":"+99012345670","workflow":[{"channel":"sms"}]}"#

    @Test("a text/plain POST from another site's page (foreign Origin, Sec-Fetch-Site cross-site) over loopback is 403 and starts nothing; the same POST from this server's own origin, or with neither header, starts one")
    func crossSitePostIsRefused() async throws {
        try await TestApplication.test(.live) { app, client in
            let base = app.baseURL
            for headers in [["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"],
                            ["Origin": "http://evil.example"], ["Sec-Fetch-Site": "cross-site"],
                            ["Sec-Fetch-Site": "same-site"], ["Origin": "null"],
                            ["Origin": "http://127.0.0.1:1"]] {
                let refused = try await client.post("/v1/verifications", raw: Self.start,
                                                    headers: headers.merging(["Content-Type": "text/plain"]) { $1 })
                #expect(refused.status == 403, "\(headers)")
                #expect(refused.string("type") == "dev-access-refused")
                #expect(refused.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            }
            #expect(app.sender.count == 0)
            let own = try await client.post("/v1/verifications", raw: Self.start,
                                            headers: ["Origin": base, "Sec-Fetch-Site": "same-origin",
                                                      "Content-Type": "application/json"])
            #expect(own.status == 202, "the console's own calls: \(own.text)")
            let id = try #require(own.string("request_id"))
            #expect(try await client.send("DELETE", "/v1/verifications/\(id)").status == 204)
            #expect(try await client.post("/v1/verifications", raw: Self.start,
                                          headers: ["Content-Type": "application/json"]).status == 202,
                    "a script with neither header")
        }
    }

    @Test("a request whose Host names another site (DNS rebinding) can't read the handset inbox; this server's names, with its port or none, can")
    func foreignHostIsRefused() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            configuration.port = 8080
            dependencies.codes = .fixed("424242")
        }) { _, client in
            let started = try await client.post("/v1/verifications", raw: Self.start,
                                                headers: ["Content-Type": "application/json"])
            #expect(started.status == 202)
            for host in ["evil.example:8080", "evil.example", "127.0.0.1.evil.example:8080", "[::2]:8080"] {
                let refused = try await client.get("/v1/dev/handsets/%2B99012345670/inbox", headers: ["Host": host])
                #expect(refused.status == 403, "\(host)")
                #expect(refused.string("type") == "dev-access-refused")
                #expect(!refused.text.contains("424242"))
            }
            // A loopback name with another port is a proxy on this machine (HAProxy before two
            // instances); a rebinding site's name is never a loopback one.
            for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "LOCALHOST", "127.0.0.1", "localhost:9999"] {
                let inbox = try await client.get("/v1/dev/handsets/%2B99012345670/inbox", headers: ["Host": host])
                #expect(inbox.status == 200, "\(host)")
                #expect(inbox.text.contains("424242"))
            }
        }
    }

    @Test("the public URL's origin and host count as this server's")
    func publicURLIsThisServer() {
        let access = DevAccess(host: "0.0.0.0", port: 8080, publicURL: "https://dev.example.test", tls: false)
        func request(_ headers: [String: String]) -> HTTPRequest {
            HTTPRequest(method: "POST", path: "/v1/verifications", headers: headers, remoteAddress: "127.0.0.1")
        }
        #expect(access.admits(request(["Host": "dev.example.test", "Origin": "https://dev.example.test"])))
        #expect(access.admits(request(["Host": "127.0.0.1:8080", "Origin": "http://localhost:8080"])))
        #expect(!access.admits(request(["Host": "dev.example.test", "Origin": "http://dev.example.test"])))
        #expect(!access.admits(request(["Host": "other.example.test"])))
        #expect(access.admits(request(["Host": " LocalHost:8080\t", "Origin": "HTTP://LOCALHOST:8080 "])),
                "names compare without case or surrounding blanks")
        #expect(!access.admits(request(["Host": " Other.Example.test "])))
        #expect(access.admits(request(["Host": "127.0.0.1:9443", "Origin": "http://127.0.0.1:9443"])),
                "the console through a proxy on this machine")
        #expect(!access.admits(request(["Host": "127.0.0.1:9443", "Origin": "http://127.0.0.1:8000"])),
                "another local site's page")
    }
}
