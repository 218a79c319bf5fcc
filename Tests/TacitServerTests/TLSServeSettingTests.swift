import Foundation
import Testing
import TacitKit
import TacitTesting

/// `tacit serve --tls-cert FILE --tls-key FILE` run as the built binary: a good pair
/// serves HTTPS, and every bad setting stops it with exit 2 and one line naming the
/// setting, before the database is created and without printing a file's contents.
@Suite("tacit serve over TLS (the built binary)", .serialized, .timeLimit(.minutes(1)))
struct TLSServeSettingTests {
    struct Files {
        let directory: URL
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        var database: String { path("t.db") }

        init() throws {
            directory = try KeyFixtures.directory()
            let certificates = TestCertificates.shared
            let files = [
                "cert.pem": certificates.loopback.credentials.certificateChainPEM, "key.pem": certificates.loopback.privateKeyPEM,
                "other-key.pem": certificates.otherHost.privateKeyPEM, "garbage.pem": "-----BEGIN NOTHING-----\nabc\n",
            ]
            for (name, text) in files { try text.write(toFile: path(name), atomically: true, encoding: .utf8) }
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let flags: @Sendable (Files) -> [String]
        var environment: @Sendable (Files) -> [String: String] = { _ in [:] }
        let message: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "a certificate without a key", flags: { ["--tls-cert", $0.path("cert.pem")] },
                message: "--tls-key (TACIT_TLS_KEY): missing: --tls-cert and --tls-key go together"),
        Refusal(name: "a key by variable without a certificate", flags: { _ in [] },
                environment: { ["TACIT_TLS_KEY": $0.path("key.pem")] },
                message: "--tls-cert (TACIT_TLS_CERT): missing: --tls-cert and --tls-key go together"),
        Refusal(name: "an unreadable certificate file", flags: { ["--tls-cert", $0.path("absent.pem"), "--tls-key", $0.path("key.pem")] },
                message: "--tls-cert (TACIT_TLS_CERT): cannot read the file"),
        Refusal(name: "a certificate file that is not PEM", flags: { ["--tls-cert", $0.path("garbage.pem"), "--tls-key", $0.path("key.pem")] },
                message: "--tls-cert (TACIT_TLS_CERT): not a PEM certificate"),
        Refusal(name: "a key file that is a certificate", flags: { ["--tls-cert", $0.path("cert.pem"), "--tls-key", $0.path("cert.pem")] },
                message: "--tls-key (TACIT_TLS_KEY): not an unencrypted PEM private key"),
        Refusal(name: "the key of another certificate", flags: { ["--tls-cert", $0.path("cert.pem"), "--tls-key", $0.path("other-key.pem")] },
                message: "--tls-key (TACIT_TLS_KEY): does not belong to the first certificate of --tls-cert"),
    ]

    @Test("a bad TLS setting stops serve with exit 2 and one line naming it", arguments: refusals)
    func refuses(_ refusal: Refusal) async throws {
        let files = try Files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let arguments = ["serve", "--port", "0", "--db", files.database, "--secret", "tls-test-secret"] + refusal.flags(files)
        let environment = refusal.environment(files)
        // Waiting for the process holds a thread: not one of the pool the live servers need.
        let run = try await KeyFixtures.tacit(arguments, environment: environment)
        #expect(run.status == 2)
        #expect(run.err.trimmingCharacters(in: .newlines) == "tacit: " + refusal.message)
        #expect(!run.err.contains("BEGIN"))
        #expect(!FileManager.default.fileExists(atPath: files.database), "nothing was opened")
    }

    @Test("a good pair serves HTTPS on the port: the announced URL is https and /healthz answers over a verified connection")
    func servesHTTPS() async throws {
        let files = try Files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let server = try TimelineCLITests.launch(["serve", "--dev", "--port", "0", "--db", files.database,
                                                  "--tls-cert", files.path("cert.pem"), "--tls-key", files.path("key.pem")])
        defer { server.terminate() }
        let handle = server.standardOutput!.fileHandleForReading
        let text = try await offThePool { () -> String in
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("Console:") {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                seen += chunk
            }
            return String(decoding: seen, as: UTF8.self)
        }
        let base = try #require(text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("https://127.0.0.1:") }.map(String.init))
        let transport = SocketCellularTransport(extraTrust: [.pem(TestCertificates.shared.authorityPEM)])
        let health = try await transport.send(CellularRequest(url: URL(string: base + "/healthz")!))
        #expect(health.status == 200)
        #expect(String(decoding: health.body, as: UTF8.self).contains("ok"))
    }
}
