import Foundation

/// What `reseal` did.
public struct ResealReport: Sendable, Equatable {
    /// Numbers sealed again (and re-indexed) under the newest key.
    public var numbers = 0
    /// Of those, the verifications still pending: their codes and client tokens stay
    /// hashed under the key they were made with until they finish.
    public var pending = 0
    /// Stored idempotent replies sealed again.
    public var replies = 0
    /// Secrets the faces keep for applications (`FaceCredential.Kind.sealedSecret`) sealed again.
    public var applicationSecrets = 0
    /// Codes the send outbox still owes (sealed with their verification and step).
    public var sendCodes = 0
    /// `--dev`'s provider state: gateway sessions' numbers, inbox bodies, the operator's secrets.
    public var devFields = 0
    /// Fields still sealed under another key once the pass was over (written meanwhile by
    /// a server that doesn't know the newest key yet).
    public var remaining = 0
    /// API keys made before API keys had a ring-independent hash, not revoked: they open
    /// only while the key they were hashed under stays in the ring.
    public var legacyAPIKeys = 0

    public init() {}
}

/// A store that can seal what it holds again under the newest key (`tacit keys reseal`).
public protocol ResealableStore: Sendable {
    /// Seals every stored number, reply, application secret, owed code and dev field that
    /// doesn't start with
    /// `current` (the newest key's header) again under the store's field protection, in
    /// batches; a row changed in between keeps its change.
    func reseal(current: [UInt8]) async throws -> ResealReport
}
