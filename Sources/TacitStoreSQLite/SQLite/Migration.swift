/// One named schema change. Its name is recorded once applied, so never rename
/// or edit a migration that has shipped: add a new one.
public struct Migration: Sendable {
    /// A unique, stable name such as `"001_create_verifications"`.
    public let name: String
    /// Applies the change; runs inside the migrator's transaction.
    public let apply: @Sendable (SQLiteConnection) throws -> Void

    /// A migration that runs code.
    public init(_ name: String, apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        self.name = name
        self.apply = apply
    }

    /// A migration that runs a script of `;`-separated statements.
    public init(_ name: String, sql: String) {
        self.init(name) { connection in try connection.executeScript(sql) }
    }
}
