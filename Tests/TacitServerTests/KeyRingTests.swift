import Foundation
import Synchronization
import Testing
import TacitCore
import TacitCrypto
@testable import TacitServer
import TacitStore
import TacitTesting

/// The key ring as a value: several keys, newest first, and how it is loaded.
@Suite("The key ring")
struct KeyRingTests {
    static let old = MasterKey(Array(repeating: 1, count: 32))
    static let new = MasterKey(Array(repeating: 2, count: 32))

    static func secrets(_ keys: MasterKey...) -> ServerSecrets { ServerSecrets(ring: KeyRing(keys, source: .ephemeral)) }

    static func configuration(_ directory: URL, dev: Bool = false) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.databasePath = directory.appendingPathComponent("tacit.db").path
        configuration.dev = dev
        return configuration
    }

    @Test("a field sealed under an older key opens after a rotation, and new fields carry the newest key's id")
    func olderFieldsOpen() throws {
        let sealed = try Self.secrets(Self.old).fieldProtection.seal(Array("+99012345687".utf8))
        let rotated = Self.secrets(Self.new, Self.old).fieldProtection
        #expect(try rotated.open(sealed) == Array("+99012345687".utf8))
        #expect(Array(try rotated.seal([1, 2, 3]).prefix(rotated.currentHeader.count)) == rotated.currentHeader)
        #expect(Array(sealed.prefix(rotated.currentHeader.count)) != rotated.currentHeader)
        #expect((try? Self.secrets(Self.new).fieldProtection.open(sealed)) == nil)
    }

    @Test("a code and a client token hashed under an older key still match after a rotation; the newest hashes new ones")
    func olderHashesMatch() throws {
        let before = Self.secrets(Self.old), after = Self.secrets(Self.new, Self.old)
        let code = try before.codeHash("123456", verificationId: "vf_a", step: 1)
        #expect(try after.codeMatches(code, code: "123456", verificationId: "vf_a", step: 1))
        #expect(try !after.codeMatches(code, code: "123457", verificationId: "vf_a", step: 1))
        #expect(try after.tokenHashes("ct_x").contains(try before.tokenHash("ct_x")))
        #expect(try after.tokenHash("ct_x") != before.tokenHash("ct_x"))
    }

    @Test("device text holding a code hashed before a rotation is still scrubbed of it")
    func scrubAfterRotation() throws {
        let before = Self.secrets(Self.old), after = Self.secrets(Self.new, Self.old)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let draft = Verification(id: "vf_rotated", phoneNumber: "+99012345687", options: VerificationOptions(workflow: [.sms]),
                                 clientTokenHash: [7], createdAt: now)
        var machine = WorkflowMachine(draft, now: now)
        _ = machine.handle(.start(simSwapped: nil))
        let step = try #require(machine.verification.currentStep)
        let hash = try before.codeHash("616420", verificationId: draft.id, step: step)
        _ = machine.handle(.codeIssued(step: step, hash: hash))
        let issued = IssuedSecrets(machine.verification, clientToken: "ct_x", secrets: after)
        #expect(issued.isCode("616420"))
        #expect(!issued.isCode("616421"))
        #expect(!Redactor.scrub("my code is 6-1-6-4-2-0", issued: issued).contains("6-1-6-4-2-0"))
    }

    @Test("TACIT_OLD_SECRETS opens what an earlier TACIT_SECRET sealed, and a production start with it is not refused")
    func oldSecrets() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = InMemoryStore()
        var configuration = Self.configuration(directory)
        configuration.secret = "first"
        let first = try await KeyRing.load(configuration: configuration, store: store)
        configuration.secret = "second"
        await #expect(throws: KeySetupError.self) { try await KeyRing.load(configuration: configuration, store: store) }
        configuration.oldSecrets = ["first"]
        let second = try await KeyRing.load(configuration: configuration, store: store)
        #expect(second.keys == [MasterKey(secret: "second"), first.newest])
    }

    @Test("in dev a missing key is one warning and the server starts; the warning names the setting, never a key")
    func devWarns() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = InMemoryStore()
        let first = try await KeyRing.load(configuration: Self.configuration(directory, dev: true), store: store)
        try FileManager.default.removeItem(atPath: directory.appendingPathComponent("tacit.db.key").path)
        let warnings = LockedLines()
        let second = try await KeyRing.load(configuration: Self.configuration(directory, dev: true), store: store) { warnings.append($0) }
        #expect(second.newest != first.newest)
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("TACIT_KEY_FILE"))
        #expect(!warnings.lines[0].contains(first.newest.name) && !warnings.lines[0].contains(Hex.encode(first.newest.bytes)))
    }

    @Test("an in-memory database gets a key for the process's life and no key file")
    func inMemory() async throws {
        var configuration = ServerConfiguration()
        configuration.databasePath = ":memory:"
        #expect(configuration.keyFilePath == nil)
        let ring = try await KeyRing.load(configuration: configuration, store: InMemoryStore())
        #expect(ring.source == .ephemeral && ring.keys.count == 1)
    }

    @Test("instances creating the key file at once: exactly one creates it, every one then reads its key, and the file is 0600")
    func createRace() throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("race.key").path
        let keys = (0..<8).map { _ in MasterKey.generate() }
        let created = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: keys.count) { index in
            let won = (try? KeyFile.create(path, keys: [keys[index]])) ?? false
            created.withLock { $0.append(won) }
        }
        #expect(created.withLock { $0.filter { $0 }.count } == 1)
        let stored = try #require(try KeyFile.read(path))
        #expect(stored.count == 1 && keys.contains(stored[0]))
        #expect(try StoredFiles.mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["race.key"], "no temporary file is left")
    }

    @Test("a malformed key file line is refused, naming the file and the line")
    func malformedFile() throws {
        #expect(throws: KeySetupError.malformed("k", line: 3)) { try KeyFile.parse("# keys\n\(String(repeating: "ab", count: 32))\nnot-a-key\n", path: "k") }
        #expect(throws: KeySetupError.self) { try KeyFile.parse("# nothing\n", path: "k") }
    }

    @Test("a key file line of good hex that is not 32 bytes is refused as malformed, naming the line",
          arguments: [1, 16, 31, 33, 64])
    func wrongLengthKey(bytes: Int) throws {
        let text = "\(String(repeating: "ab", count: 32))\n\(String(repeating: "cd", count: bytes))\n"
        #expect(throws: KeySetupError.malformed("k", line: 2)) { try KeyFile.parse(text, path: "k") }
    }
}

/// Lines appended from a warning callback.
final class LockedLines: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
