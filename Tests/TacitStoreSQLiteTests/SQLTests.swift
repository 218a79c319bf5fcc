import Testing
import TacitStoreSQLite

@Suite("SQL interpolation")
struct SQLTests {
    @Test("interpolated values become ? placeholders with bindings in order")
    func bindsValues() {
        let id = "v_1"
        let attempts = 3
        let sql: SQL = "SELECT * FROM v WHERE id = \(id) AND attempts < \(attempts)"
        #expect(sql.text == "SELECT * FROM v WHERE id = ? AND attempts < ?")
        #expect(sql.bindings == [.text("v_1"), .integer(3)])
    }

    @Test("raw text is inserted verbatim and binds nothing")
    func raw() {
        let table = "verifications"
        let sql: SQL = "SELECT count(*) FROM \(raw: table)"
        #expect(sql.text == "SELECT count(*) FROM verifications")
        #expect(sql.bindings.isEmpty)
    }

    @Test("lists expand to one placeholder per value, and an empty list to NULL")
    func lists() {
        let sql: SQL = "WHERE status IN (\(list: ["pending", "failed"]))"
        #expect(sql.text == "WHERE status IN (?, ?)")
        #expect(sql.bindings == [.text("pending"), .text("failed")])
        let empty: SQL = "WHERE status IN (\(list: [String]()))"
        #expect(empty.text == "WHERE status IN (?)")
        #expect(empty.bindings == [.null])
    }

    @Test("fragments combine with their bindings in order")
    func fragments() {
        let condition: SQL = "id = \(7)"
        let sql: SQL = "SELECT * FROM t WHERE \(condition) AND name = \("a")"
        #expect(sql.text == "SELECT * FROM t WHERE id = ? AND name = ?")
        #expect(sql.bindings == [.integer(7), .text("a")])
        let joined = sql + " LIMIT \(1)"
        #expect(joined.text.hasSuffix("LIMIT ?"))
        #expect(joined.bindings.count == 3)
    }

    @Test("optionals bind their value or NULL")
    func optionals() {
        let present: String? = "x"
        let absent: Int? = nil
        let sql: SQL = "VALUES (\(present), \(absent))"
        #expect(sql.bindings == [.text("x"), .null])
    }
}
