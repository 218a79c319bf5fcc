import Foundation
import Testing
import TacitCrypto
@testable import TacitServer
import TacitTesting

/// docs/security.md#keys-outside-the-database: a copy of the database alone yields no phone number, code or token. The
/// copy is searched value by value in every table and column, and every value is tried
/// as the master secret (raw, as a `TACIT_SECRET`, and hex-decoded) against a sealed number.
@Suite("A copy of the database file alone yields nothing", .timeLimit(.minutes(1)))
struct DatabaseCopyTests {
    static let silentNumber = "+99012345681"
    static let smsNumber = "+99012345682"

    /// What the server handed out while the database was written: tokens, check URL, code.
    static func issue(_ client: TestClient) async throws -> [String] {
        let silent = try await client.post("/v1/verifications", json: [
            "phone_number": silentNumber, "workflow": [["channel": "silent_auth"], ["channel": "sms"]],
        ], headers: ["Idempotency-Key": "copy-1"])
        let sms = try await client.post("/v1/verifications", json: ["phone_number": smsNumber, "workflow": [["channel": "sms"]]],
                                        headers: ["Idempotency-Key": "copy-2"])
        let checkURL = try #require(silent.string("check_url"))
        let tokens = try [silent, sms].map { try #require($0.string("client_token")) }
        let code = try #require(try await client.latestCode(smsNumber))
        // A token's random tail may itself hold `_`: it is the token's last 43 characters.
        return tokens + tokens.map { String($0.suffix(ClientToken.tailLength)) }
            + [checkURL, String(checkURL[try #require(checkURL.range(of: "cu_")).lowerBound...]), code]
    }

    /// The master secrets a value could stand for.
    static func candidates(_ value: [UInt8]) -> [[UInt8]] {
        var found = [SHA256.hash(value)]
        if value.count == 32 { found.append(value) }
        if let decoded = Hex.decode(String(decoding: value, as: UTF8.self)), decoded.count == 32 { found.append(decoded) }
        return found
    }

    @Test("no number, client token, check URL, code or key is in any table or column, and no stored value opens a sealed number")
    func copyYieldsNothing() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let issued = try await TestApplication.test(.inProcess, configure: { configuration, _ in configuration.databasePath = db }) { _, client in
            try await Self.issue(client)
        }
        let copy = try KeyFixtures.copyDatabase(db, into: directory.appendingPathComponent("leaked"))
        let values = try StoredFiles.storedValues(copy)
        let code = issued.last ?? ""
        let numbers = [Self.silentNumber, Self.smsNumber].flatMap { [$0, String($0.dropFirst())] }
        for needle in issued.dropLast() + numbers {
            #expect(!values.contains { $0.contains(bytes: Array(needle.utf8)) }, "the copy holds \(needle.prefix(6))…")
        }
        #expect(!values.contains { $0.digitRuns.contains(code) }, "the copy holds the code")

        let sealed = try StoredFiles.column("phone_sealed", of: "verifications", in: copy)
        #expect(sealed.count == 2)
        for value in values {
            for candidate in Self.candidates(value) {
                let fields = ServerSecrets(master: candidate).fieldProtection
                #expect(sealed.allSatisfy { (try? fields.open($0)) == nil }, "a stored value opens a sealed number")
            }
        }
    }
}
