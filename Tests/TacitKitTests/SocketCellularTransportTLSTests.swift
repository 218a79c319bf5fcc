import Foundation
import Testing
import TacitHTTP
import TacitTesting
@testable import TacitKit

/// `https://` through the Linux socket transport, against TacitHTTP over TLS with
/// certificates made for the test: verified when the test CA is trusted, refused with
/// its own reason when the certificate is for another host, expired or unknown.
@Suite("SocketCellularTransport over TLS", .timeLimit(.minutes(1)))
struct SocketCellularTransportTLSTests {
    static let certificates = TestCertificates.shared
    static let trusting = SocketCellularTransport(sourceAddress: "127.0.0.2", extraTrust: [.pem(certificates.authorityPEM)])

    static func refusal(_ identity: TestCertificates.Identity, transport: SocketCellularTransport = trusting) async throws -> CellularTransportError? {
        let server = try TLSTestServer(identity) { _ in .text("must not be read") }
        let error = await #expect(throws: CellularTransportError.self) {
            try await transport.send(CellularRequest(url: server.url("/check")))
        }
        #expect(server.requests.isEmpty, "no request reached the server")
        await server.stop()
        return error
    }

    @Test("an https request with the test CA trusted is answered, leaving from the bound source address")
    func verifiedExchange() async throws {
        let server = try TLSTestServer { request in .text("secure \(request.path)") }
        let response = try await Self.trusting.send(CellularRequest(url: server.url("/check?x=1")))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "secure /check")
        #expect(server.requests == [TLSTestServer.Seen(path: "/check", peer: "127.0.0.2")])
        await server.stop()
    }

    @Test("a host name is verified against the certificate's DNS names: localhost passes, elsewhere.test's certificate does not")
    func nameVerification() async throws {
        let server = try TLSTestServer { _ in .text("by name") }
        let port = server.url("/").port!
        let response = try await Self.trusting.send(CellularRequest(url: URL(string: "https://localhost:\(port)/")!))
        #expect(String(decoding: response.body, as: UTF8.self) == "by name")
        await server.stop()
        let other = try TLSTestServer(Self.certificates.otherHost) { _ in .text("never") }
        let error = await #expect(throws: CellularTransportError.self) {
            try await Self.trusting.send(CellularRequest(url: URL(string: "https://localhost:\(other.url("/").port!)/")!))
        }
        #expect(error?.message == "the certificate is for another host")
        await other.stop()
    }

    @Test("the ClientHello names the host (SNI) for a host name, and names no address for an IP literal")
    func serverNameIndication() async throws {
        let catcher = try HelloCatcher()
        defer { catcher.stop() }
        for host in ["localhost", "127.0.0.1"] {
            _ = try? await Self.trusting.send(CellularRequest(url: URL(string: "https://\(host):\(catcher.port)/")!, timeout: .seconds(3)))
        }
        let hellos = catcher.hellos.map { String(decoding: $0, as: UTF8.self) }
        try #require(hellos.count == 2)
        #expect(hellos[0].contains("localhost"))
        #expect(!hellos[1].contains("127.0.0.1"))
    }

    @Test("the extra CA may be given as a PEM file")
    func extraTrustFromFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-ca-\(UUID().uuidString).pem").path
        try Self.certificates.authorityPEM.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try TLSTestServer { _ in .text("ok") }
        let response = try await SocketCellularTransport(extraTrust: [.pemFile(path)]).send(CellularRequest(url: server.url("/")))
        #expect(response.status == 200)
        await server.stop()
    }

    @Test("a certificate for another host name is refused as untrusted")
    func wrongHostName() async throws {
        let error = try await Self.refusal(Self.certificates.otherHost)
        #expect(error?.code == .untrustedCertificate)
        #expect(error?.message == "the certificate is for another host")
    }

    @Test("a certificate from an unknown CA is refused as untrusted")
    func unknownAuthority() async throws {
        let error = try await Self.refusal(Self.certificates.unknownAuthority)
        #expect(error?.code == .untrustedCertificate)
        #expect(error?.message == "the certificate's authority is not trusted")
    }

    @Test("without the extra CA, the test CA is unknown: only the system's store is trusted")
    func systemStoreOnly() async throws {
        let error = try await Self.refusal(Self.certificates.loopback, transport: SocketCellularTransport(sourceAddress: "127.0.0.2"))
        #expect(error?.code == .untrustedCertificate)
    }

    @Test("an expired certificate is refused as untrusted")
    func expired() async throws {
        let error = try await Self.refusal(Self.certificates.expired)
        #expect(error?.code == .untrustedCertificate)
        #expect(error?.message == "the certificate is expired or not yet valid")
    }

    @Test("https to a server that speaks plain HTTP fails as tlsFailed, not as a certificate problem")
    func plainServer() async throws {
        let server = try EagerPlainServer()
        defer { server.stop() }
        let url = URL(string: "https://127.0.0.1:\(server.port)/")!
        let error = await #expect(throws: CellularTransportError.self) {
            try await Self.trusting.send(CellularRequest(url: url, timeout: .seconds(3)))
        }
        #expect(error?.code == .tlsFailed)
    }

    @Test("the Host header of an https URL leaves out the default port 443 and keeps any other")
    func hostHeader() throws {
        #expect(try HTTPTarget(URL(string: "https://carrier.example/x")!).hostHeader == "carrier.example")
        #expect(try HTTPTarget(URL(string: "https://carrier.example/x")!).port == 443)
        #expect(try HTTPTarget(URL(string: "https://carrier.example:8443/x")!).hostHeader == "carrier.example:8443")
        #expect(try HTTPTarget(URL(string: "http://carrier.example:443/x")!).hostHeader == "carrier.example:443")
    }
}
