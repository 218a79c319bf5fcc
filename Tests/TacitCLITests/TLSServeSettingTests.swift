import Foundation
import TacitCLI
import TacitKit
import Testing
import TacitTesting

/// `tacit serve --tls-cert FILE --tls-key FILE` in process: a good pair serves HTTPS, and
/// every bad setting stops it with exit 2 and one line naming the setting, before the
/// database is created and without printing a file's contents.
@Suite("tacit serve over TLS", .timeLimit(.minutes(1)))
struct TLSServeSettingTests {
    struct Files {
        let directory: URL
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        var database: String { path("t.db") }

        init() throws {
            directory = try StoreFiles.directory()
            let certificates = TestCertificates.shared
            let files = [
                "cert.pem": certificates.loopback.credentials.certificateChainPEM,
                "key.pem": certificates.loopback.privateKeyPEM,
                "other-key.pem": certificates.otherHost.privateKeyPEM,
                "garbage.pem": "-----BEGIN NOTHING-----\nabc\n",
            ]
            for (name, text) in files { try text.write(toFile: path(name), atomically: true, encoding: .utf8) }
        }

        /// `--tls-cert` and `--tls-key` naming two of the files.
        func pair(_ certificate: String, _ key: String) -> [String] {
            ["--tls-cert", path(certificate), "--tls-key", path(key)]
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
        Refusal(name: "an unreadable certificate file", flags: { $0.pair("absent.pem", "key.pem") },
                message: "--tls-cert (TACIT_TLS_CERT): cannot read the file"),
        Refusal(name: "a certificate file that is not PEM", flags: { $0.pair("garbage.pem", "key.pem") },
                message: "--tls-cert (TACIT_TLS_CERT): not a PEM certificate"),
        Refusal(name: "a key file that is a certificate", flags: { $0.pair("cert.pem", "cert.pem") },
                message: "--tls-key (TACIT_TLS_KEY): not an unencrypted PEM private key"),
        Refusal(name: "the key of another certificate", flags: { $0.pair("cert.pem", "other-key.pem") },
                message: "--tls-key (TACIT_TLS_KEY): does not belong to the first certificate of --tls-cert"),
    ]

    @Test("a bad TLS setting stops serve with exit 2 and one line naming it", arguments: refusals)
    func refuses(_ refusal: Refusal) async throws {
        let files = try Files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let arguments = ["serve", "--port", "0", "--db", files.database, "--secret", "tls-test-secret"]
        let run = await CommandRun.of(arguments + refusal.flags(files), environment: refusal.environment(files))
        #expect(run.status == 2)
        #expect(run.err.trimmingCharacters(in: .newlines) == "tacit: " + refusal.message)
        #expect(!run.err.contains("BEGIN"))
        #expect(!FileManager.default.fileExists(atPath: files.database), "nothing was opened")
    }

    @Test("a good pair serves HTTPS on the port: the announced URL is https and /healthz answers, verified")
    func servesHTTPS() async throws {
        let files = try Files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let arguments = ["--dev", "--port", "0", "--db", files.database] + files.pair("cert.pem", "key.pem")
        let (health, run) = try await RunningCommand.serving(arguments) { base in
            #expect(base.hasPrefix("https://127.0.0.1:"))
            let transport = SocketCellularTransport(extraTrust: [.pem(TestCertificates.shared.authorityPEM)])
            return try await transport.send(CellularRequest(url: try #require(URL(string: base + "/healthz"))))
        }
        #expect(health.status == 200)
        #expect(String(decoding: health.body, as: UTF8.self).contains("ok"))
        #expect(run.status == 0)
    }
}
