/// A sealed column `reseal` covers besides numbers, replies and application secrets: the
/// codes the send outbox still owes, and `--dev`'s provider state (gateway sessions'
/// numbers, inbox bodies, the operator's secrets). One list for every store; table and
/// column names are these constants, never input, and a key is read as text (the same
/// `CAST` on SQLite and PostgreSQL) so one cursor fits every table.
public struct OwedSealedColumn: Sendable {
    public let table: String
    public let key: String
    public let column: String
    /// Whether it is `--dev`'s state rather than an owed code, for the reseal report.
    public let isDevState: Bool

    public static let all = [
        OwedSealedColumn(table: "send_outbox", key: "id", column: "sealed_code", isDevState: false),
        OwedSealedColumn(table: "dev_gateway_sessions", key: "id", column: "number_sealed", isDevState: true),
        OwedSealedColumn(table: "dev_inbox", key: "CAST(seq AS TEXT)", column: "body_sealed", isDevState: true),
        OwedSealedColumn(table: "dev_secrets", key: "name", column: "value", isDevState: true),
    ]

    /// Reseals every column with `reseal` (which returns how many values it sealed again);
    /// returns how many codes and how many dev fields.
    public static func resealAll(_ reseal: (OwedSealedColumn) async throws -> Int) async throws
        -> (codes: Int, dev: Int) {
        var codes = 0, dev = 0
        for sealed in all {
            let count = try await reseal(sealed)
            if sealed.isDevState { dev += count } else { codes += count }
        }
        return (codes, dev)
    }
}
