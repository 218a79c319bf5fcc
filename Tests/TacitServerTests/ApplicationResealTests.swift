import Foundation
import Testing
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// A rotated master key reaches the applications' sealed secrets too.
@Suite("Application secrets and key rotation")
struct ApplicationResealTests {
    @Test("reseal seals an application's signature secret again under the newest key, after which the newest key alone opens it")
    func resealsSignatureSecret() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tacit.db").path
        let old = Array(repeating: UInt8(1), count: 32), new = Array(repeating: UInt8(2), count: 32)
        let before = ServerSecrets(master: old)
        let first = try SQLiteVerificationStore(path: path)
        first.protect(with: before.fieldProtection)
        let manager = try await ApplicationManager.open(store: first)
        let (application, _) = try await manager.create(name: "Shop")
        var change = ApplicationChange()
        change.faceSettings["vonage-signature-secret"] = String(repeating: "k", count: 40)
        _ = try await manager.set(id: application.id, change) { try before.fieldProtection.seal($0) }

        let rotated = ServerSecrets(ring: KeyRing([MasterKey(new), MasterKey(old)], source: .ephemeral))
        let second = try SQLiteVerificationStore(path: path)
        second.protect(with: rotated.fieldProtection)
        let report = try await second.reseal(current: rotated.fieldProtection.currentHeader)
        #expect(report.applicationSecrets == 1)
        #expect(report.remaining == 0)
        let records = try await second.faceCredentials(application: application.id, face: "vonage")
        let sealed = try #require(records.named("signature_secret")?.bytes)
        #expect(try ServerSecrets(master: new).fieldProtection.open(sealed) == Array(String(repeating: "k", count: 40).utf8))
    }
}
