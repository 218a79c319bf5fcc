/// Statements a transaction can't go on without (an insert that may be refused, an update's
/// compare-and-set) made to fail when they change no row, instead of answering zero. The
/// statements after one of them then need not wait for its answer: they go to the server
/// in the same pipeline, which skips them when it fails, and the transaction rolls back.
/// A create and an update each cost one round trip this way instead of two (on a busy
/// two-core machine every round trip is a wake-up of PostgreSQL's backend and of the
/// connection's thread), and one statement instead of five.
extension PostgresSchema {
    /// The SQLSTATE of a required change that changed nothing (class `TC` is not one of
    /// PostgreSQL's own).
    static let nothingChangedState = "TC001"

    /// Called only when nothing changed: `CASE` evaluates it only then, and a volatile
    /// function is never evaluated while planning. A PL/pgSQL call on every write would
    /// cost as much as the trigger on `verifications` does.
    static let requiredChange = PostgresMigrator.Migration("pipeline_001_required_change", sql: """
        CREATE FUNCTION tacit_nothing_changed() RETURNS bigint LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'a required change changed no row' USING ERRCODE = '\(nothingChangedState)';
        END $$;
        """)
}

extension PostgresQuery {
    /// `statement`, an INSERT, UPDATE or DELETE without a RETURNING clause, failing with
    /// `PostgresError.isNothingChanged` when it changes no row; `along` are more writes in
    /// the same statement, each a data-modifying query of its WITH list. One statement
    /// for a create's or an update's every row, instead of one each: on its own it is a
    /// transaction, with no BEGIN and COMMIT around it (`PostgresConnection.transaction`).
    /// Every part runs on the statement's one snapshot, so none sees the rows another
    /// wrote: they must not depend on each other, as rows of different tables for one
    /// verification don't. They all run to completion, and all go if one fails.
    static func requiringChange(_ statement: PostgresQuery, along writes: [PostgresQuery] = []) -> PostgresQuery {
        let parts = writes.enumerated().map { position, write in
            PostgresQuery(joining: [PostgresQuery(stringLiteral: "w\(position) AS ("), write, ")"], separator: "")
        }
        let required: PostgresQuery = "changed AS (\(statement) RETURNING 1)"
        let joined = PostgresQuery(joining: parts + [required], separator: ", ")
        return "WITH \(joined) SELECT CASE WHEN count(*) = 0 THEN tacit_nothing_changed() END FROM changed"
    }
}

extension PostgresError {
    /// A statement made with `PostgresQuery.requiringChange` changed no row.
    var isNothingChanged: Bool { sqlState == PostgresSchema.nothingChangedState }
}
