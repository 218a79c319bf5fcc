import TacitStore

/// One setting a face keeps for an application (`tacit apps set APP --OPTION VALUE`),
/// stored as the face's record `name` of `kind` (`.setting` in clear, `.sealedSecret`
/// sealed with the server's field protection before the store sees it).
public struct FaceSetting: Sendable {
    /// The record's name among the face's.
    public var name: String
    /// The command-line option that sets it, without dashes (`vendor-callback-url`).
    public var option: String
    public var kind: FaceCredential.Kind
    /// Whether the option names a file whose text is the value (a key in PEM, say).
    public var valueFromFile: Bool
    /// Why `value` can't be stored, or nil when it can; never echoes the value.
    public var problem: @Sendable (_ value: String) -> String?

    public init(name: String, option: String, kind: FaceCredential.Kind, valueFromFile: Bool = false,
                problem: @escaping @Sendable (_ value: String) -> String? = { _ in nil }) {
        self.name = name
        self.option = option
        self.kind = kind
        self.valueFromFile = valueFromFile
        self.problem = problem
    }
}
