import Foundation
import TacitCore
import TacitStore

extension PostgresVerificationStore {
    /// The row for `id` with the version an update is confirmed against; `lock` takes the
    /// row's lock for the rest of the transaction.
    /// The row of `id`, nil when there is none or it belongs to another application than
    /// `scope` (see `StoreScope`): one query either way.
    static func stored(_ id: String, _ db: PostgresConnection, _ fields: any FieldProtection, lock: Bool,
                       visibleTo scope: String?) throws
        -> (version: Int, verification: Verification)? {
        let match: PostgresQuery = "id = \(id) AND (\(scope)::text IS NULL OR application_id = \(scope))"
        let rows = lock ? try db.query("SELECT * FROM verifications WHERE \(match) FOR UPDATE")
                        : try db.query("SELECT * FROM verifications WHERE \(match)")
        guard let row = rows.first else { return nil }
        return (try row.int("version"), try verification(row, fields))
    }

    static func verification(_ row: PostgresRow, _ fields: any FieldProtection) throws -> Verification {
        let contact = SealedContact.read(try fields.open(try row.bytes("phone_sealed")))
        guard let status = VerificationStatus(rawValue: try row.string("status")) else {
            throw StoreError.backend("unknown status")
        }
        var verification = try VerificationRecord.decode(try row.bytes("record")).verification(
            id: try row.string("id"), phoneNumber: contact.phoneNumber, status: status,
            deadline: try row.optionalDate("deadline"),
            createdAt: try row.date("created_at"), lastSeq: try row.int("last_seq"))
        verification.applicationId = try row.string("application_id")
        verification.face = try row.string("face")
        verification.emailAddress = contact.emailAddress
        return verification
    }
}

extension StoreError {
    /// The store's error for a PostgreSQL failure. A data exception's message can quote
    /// the value it refused, so only its SQLSTATE is kept.
    init(_ error: PostgresError) {
        let message = error.sqlState.hasPrefix("22") ? "PostgreSQL \(error.sqlState)" : error.description
        self = .backend(message)
    }
}
