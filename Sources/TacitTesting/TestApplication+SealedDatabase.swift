import Foundation
import TacitServer

extension TestApplication {
    /// A database file in `directory` holding one verification, sealed by a dev server with
    /// `configure`'s keys: what the key-file tests start a server on.
    public static func sealedDatabase(in directory: URL,
                                      configure: @escaping (inout ServerConfiguration) -> Void = { _ in })
        async throws -> String {
        let db = directory.appendingPathComponent("tacit.db").path
        try await test(.inProcess, configure: { configuration, _ in
            configuration.databasePath = db
            configure(&configuration)
        }) { _, client in
            let started = try await client.start("+99012345683", channels: ["sms"])
            guard started.reply.status == 202 else { throw SealedDatabaseError(status: started.reply.status) }
        }
        return db
    }
}

/// The start that was to seal the database was refused.
struct SealedDatabaseError: Error, CustomStringConvertible {
    let status: Int
    var description: String { "the sealing start answered \(status), not 202" }
}
