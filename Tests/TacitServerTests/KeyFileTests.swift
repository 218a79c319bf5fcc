import Foundation
import Testing
import TacitCrypto
import TacitServer
import TacitTesting

/// The key file: created beside the database with mode 0600. What `tacit serve` does with one
/// that doesn't fit is in TacitCLITests' KeyFileStartTests.
@Suite("The key file and the start check", .timeLimit(.minutes(1)))
struct KeyFileTests {
    /// A database with one verification, sealed by a dev server with `configure`'s keys.
    static func sealedDatabase(in directory: URL, configure: @escaping (inout ServerConfiguration) -> Void = { _ in })
        async throws -> String {
        let db = directory.appendingPathComponent("tacit.db").path
        try await TestApplication.test(.inProcess, configure: { configuration, _ in
            configuration.databasePath = db
            configure(&configuration)
        }) { _, client in
            let started = try await client.start("+99012345683", channels: ["sms"])
            #expect(started.reply.status == 202)
        }
        return db
    }

    @Test("the first start creates the key file beside the database, mode 0600, and its key opens the stored number")
    func createdOnFirstStart() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await Self.sealedDatabase(in: directory)
        let file = db + ".key"
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try StoredFiles.mode(file) == 0o600)
        let key = try #require(try StoredFiles.keys(in: file).first)
        let sealed = try #require(try StoredFiles.column("phone_sealed", of: "verifications", in: db).first)
        let number = try ServerSecrets(master: key).fieldProtection.open(sealed)
        #expect(String(decoding: number, as: UTF8.self) == "+99012345683")
    }
}
