import Foundation
import TacitStoreSQLite

/// Every row of the tables that hold state, to prove a refused request changed nothing.
struct DatabaseSnapshot: Equatable {
    var rows: [String]

    init(path: String) throws {
        let connection = try SQLiteConnection(path: path, options: SQLiteOptions(readOnly: true))
        defer { connection.close() }
        var rows: [String] = []
        for table in ["verifications", "events", "idempotency"] {
            for row in try connection.query(SQL(stringLiteral: "SELECT * FROM \(table) ORDER BY 1, 2")) {
                rows.append(table + ":" + row.values.map { "\($0)" }.joined(separator: "|"))
            }
        }
        self.rows = rows
    }
}
