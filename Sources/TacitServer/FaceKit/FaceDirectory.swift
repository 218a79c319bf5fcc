/// The faces one running application serves, by name: what the gate, the webhook planner
/// and dispatcher, and the silent flow ask about a face-started verification.
struct FaceDirectory: Sendable {
    let faces: [String: any CompatibleFace]

    init(_ faces: [any CompatibleFace]) {
        self.faces = Dictionary(faces.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The rules for verifications started through `face`; `/v1`'s for `/v1` and any unknown face.
    func rules(for face: String) -> FaceRules { faces[face]?.rules ?? .standard }
}
