import Foundation
import Testing
@testable import TacitServer
import TacitStore
import TacitTesting

/// API keys are stored under a hash no master key is part of, so a rotation leaves them
/// working; keys made before (hashed under the master key) still open while it is in the ring.
@Suite("API keys across a key rotation")
struct APIKeyHashTests {
    @Test("a new API key and one hashed under the master key, as keys were before, both open before and after a rotation")
    func keysSurviveRotation() async throws {
        try await SecurityCalls.test(dev: false) { server in
            let fresh = try await server.makeKey()
            let secrets = try await ServerSecrets.load(configuration: server.app.configuration, store: server.store)
            let legacy = "tk_legacy" + String(repeating: "A", count: 34)
            try await server.store.insertKey(APIKey(id: "key_legacy", name: "old", scopes: Scope.defaults, createdAt: Date()),
                                             hash: secrets.tokenHash(legacy))
            #expect(try await server.store.key(hash: APIKeyHash.of(fresh)) != nil)
            #expect(APIKeyHash.of(fresh).count == 33)
            #expect(try await server.start("+447911123461", token: fresh).status == 202)
            #expect(try await server.start("+447911123462", token: legacy).status == 202)

            let path = try #require(server.app.configuration.keyFilePath)
            try KeyFile.replace(path, keys: [MasterKey.generate()] + (try KeyFile.read(path) ?? []))
            try await server.app.restart()
            #expect(try await server.start("+447911123463", token: fresh).status == 202)
            #expect(try await server.start("+447911123464", token: legacy).status == 202)
            #expect(try await server.start("+447911123465", token: legacy + "x").status == 401)
        }
    }
}
