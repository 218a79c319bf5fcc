import Foundation
import Testing

/// `tacit serve`'s circuit-breaker settings, by variable and by config line, run as the built binary.
@Suite("Provider breaker settings", .timeLimit(.minutes(1)))
struct ProviderBreakerSettingTests {
    @Test("a breaker setting that isn't a positive number stops serve before it opens anything, by variable and by config line, naming the setting")
    func refusesBadValues() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-breaker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tacit.conf")
        try "TACIT_PROVIDER_BREAKER_FAILURES = 0\n".write(to: config, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("t.db").path
        let serve = ["serve", "--dev", "--port", "0", "--db", database]
        let byFile = try await KeyFixtures.tacit(serve + ["--config", config.path])
        #expect(byFile.status == 2)
        #expect(byFile.err.contains("TACIT_PROVIDER_BREAKER_FAILURES: must be a whole number of at least 1"))
        let byVariable = try await KeyFixtures.tacit(serve, environment: ["TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS": "soon"])
        #expect(byVariable.status == 2)
        #expect(byVariable.err.contains("TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS: must be a number of seconds above 0"))
        #expect(!byVariable.err.contains("soon"))
        #expect(!FileManager.default.fileExists(atPath: database), "nothing was served")
    }
}
