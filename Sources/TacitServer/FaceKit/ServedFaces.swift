import TacitStore

/// The faces one running application serves, by name, as the gate and the webhook
/// dispatcher reach them.
struct ServedFaces: Sendable {
    let byName: [String: any ServedFace]

    init(_ byName: [String: any ServedFace] = [:]) {
        self.byName = byName
    }

    subscript(name: String) -> (any ServedFace)? { byName[name] }

    /// The face whose callback the outbox row is, if it is one.
    func callbackOwner(of message: OutboxMessage) -> (any ServedFace)? {
        byName.first { name, _ in FaceCallbacks.application(in: message.endpoint, face: name) != nil }?.value
    }
}
