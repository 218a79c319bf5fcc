import Foundation
import Testing
import TacitHTTP
import TacitTesting
@testable import TacitKit

/// The device flow when carrier hops are `https://`: redirects cross between http and
/// https, a hop with a bad certificate stops the run with its own reason, and a whole
/// silent check runs against the real server over TLS.
@Suite("SilentAuth over TLS", .timeLimit(.minutes(1)))
struct SilentAuthTLSTests {
    static let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2",
                                                  extraTrust: [.pem(TestCertificates.shared.authorityPEM)])

    @Test("a redirect chain http → https → http is followed over the cellular source and the code submitted")
    func crossesSchemes() async throws {
        let box = URLBox()
        let secureHop = try TLSTestServer { _ in .redirect(location: box.get().absoluteString + "/final") }
        let fake = try FakeOperator { request in
            switch request.path {
            case "/check/abc": .respond(302, headers: ["Location": secureHop.url("/gw?x=y").absoluteString])
            case "/final": FakeOperator.final()
            default: .respond(404)
            }
        }
        defer { fake.server.stop() }
        box.set(fake.server.baseURL)
        let result = await fake.run(transport: Self.cellular)
        #expect(result == .submitted)
        #expect(secureHop.requests == [TLSTestServer.Seen(path: "/gw", peer: "127.0.0.2")])
        #expect(fake.server.requests.filter { !$0.path.hasPrefix("/v1/") }.map(\.path) == ["/check/abc", "/final"])
        #expect(fake.server.requests(to: FakeOperator.checkPath).first?.bodyText == #"{"code":"9876"}"#)
        await secureHop.stop()
    }

    @Test("a carrier hop whose certificate is not trusted stops the run as certificate_error, reported and nothing submitted",
          arguments: [\TestCertificates.unknownAuthority, \TestCertificates.otherHost, \TestCertificates.expired])
    func untrustedHop(_ identity: KeyPath<TestCertificates, TestCertificates.Identity> & Sendable) async throws {
        let badHop = try TLSTestServer(TestCertificates.shared[keyPath: identity]) { _ in .text("never read") }
        let fake = try FakeOperator { request in
            request.path == "/check/abc" ? .respond(302, headers: ["Location": badHop.url("/gw").absoluteString]) : .respond(404)
        }
        defer { fake.server.stop() }
        let result = await fake.run(transport: Self.cellular)
        #expect(result.clientErrorName == "certificate_error")
        #expect(badHop.requests.isEmpty)
        #expect(fake.server.requests(to: FakeOperator.checkPath).isEmpty)
        let reported = fake.server.requests(to: FakeOperator.eventsPath).map(\.bodyText)
        #expect(reported.contains { $0.contains("certificate_error") })
        await badHop.stop()
    }

    @Test("a carrier hop that answers https with plain HTTP stops the run as tls_error")
    func plainHop() async throws {
        let plain = try EagerPlainServer()
        defer { plain.stop() }
        let fake = try FakeOperator { request in
            request.path == "/check/abc" ? .respond(302, headers: ["Location": "https://127.0.0.1:\(plain.port)/gw"]) : .respond(404)
        }
        defer { fake.server.stop() }
        #expect(await fake.run(transport: Self.cellular).clientErrorName == "tls_error")
    }

    @Test("against the server over TLS, the https check_url completes the verification over the cellular path")
    func realServerOverTLS() async throws {
        try await TestApplication.test(.liveTLS) { app, client in
            let started = try await client.post("/v1/verifications", json: [
                "phone_number": "+99012345670", "workflow": [["channel": "silent_auth"], ["channel": "sms"]],
            ])
            let id = try #require(started.string("request_id"))
            let checkURL = try #require(started.string("check_url").flatMap(URL.init(string:)))
            #expect(checkURL.scheme == "https")
            var options = SilentAuth.Options()
            options.submitRetryDelay = .zero
            let api = SocketCellularTransport(extraTrust: [.pem(TestCertificates.shared.authorityPEM)])
            let result = await SilentAuth.run(checkURL: checkURL, requestId: id, clientToken: try #require(started.string("client_token")),
                                              baseURL: URL(string: app.baseURL)!, transport: Self.cellular, apiTransport: api,
                                              options: options)
            #expect(result == .submitted)
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "completed")
        }
    }
}
