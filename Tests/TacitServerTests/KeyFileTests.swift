import Foundation
import Testing
import TacitCrypto
import TacitServer
import TacitTesting

/// The key file: created beside the database with mode 0600. What `tacit serve` does with one
/// that doesn't fit is in TacitCLITests' KeyFileStartTests.
@Suite("The key file and the start check", .timeLimit(.minutes(1)))
struct KeyFileTests {
    @Test("the first start creates the key file beside the database, mode 0600, and its key opens the stored number")
    func createdOnFirstStart() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await TestApplication.sealedDatabase(in: directory)
        let file = db + ".key"
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try StoredFiles.mode(file) == 0o600)
        let key = try #require(try StoredFiles.keys(in: file).first)
        let sealed = try #require(try StoredFiles.column("phone_sealed", of: "verifications", in: db).first)
        let number = try ServerSecrets(master: key).fieldProtection.open(sealed)
        #expect(String(decoding: number, as: UTF8.self) == "+99012345683")
    }
}
