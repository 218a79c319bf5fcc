import Foundation
import TacitCore
import TacitStore

/// A drop-in compatible API served beside `/v1` (docs/compatible-apis.md): another
/// vendor's paths, bodies, credentials and errors over the same engine, guards and
/// timeline. This is the one extension point a face plugs in through: the server knows a
/// face only as this protocol, each face is a target of its own, and the composition root
/// hands them to the application (`TacitApplication.Dependencies.faces`).
public protocol CompatibleFace: Sendable {
    /// What verifications started through it record as their face (`Verification.face`),
    /// and the name its stored records and callbacks go by.
    var name: String { get }
    /// The rules the engine keeps for the verifications it starts.
    var rules: FaceRules { get }
    /// The settings `tacit apps set` can change for an application, kept as the face's records.
    var settings: [FaceSetting] { get }
    /// Fresh credentials for a new application: what the store keeps, and what is shown once.
    func issueCredentials() -> IssuedFaceCredentials
    /// The callbacks a verification it started owes its application for `effects`, as
    /// outbox rows committed with the change they report; their `endpoint` is
    /// `FaceCallbacks.endpoint(face:application:)`.
    func callbacks(for effects: [WorkflowEffect], verification: Verification, at now: Date,
                   makeID: () -> String) -> [OutboxMessage]
    /// The face's serving half for one running application: its routes, gate and callback targets.
    func serve(in context: FaceContext) -> any ServedFace
}

extension CompatibleFace {
    public var settings: [FaceSetting] { [] }

    public func callbacks(for effects: [WorkflowEffect], verification: Verification, at now: Date,
                          makeID: () -> String) -> [OutboxMessage] { [] }
}
