import Foundation
import CPostgres

/// The connection a `PostgresListener` holds: opened, told to `LISTEN` on one channel,
/// then only read. It is a connection of its own, never one of the pool's, because it
/// waits on its socket for as long as the instance runs. Every call blocks; the listener
/// makes them on its own thread.
// @unchecked Sendable: only the listener's thread uses it, one call at a time.
final class PostgresListenConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The channel it listens on, as the server names it.
    let channel: String

    /// Opens a connection to `conninfo` and listens on the channel `channelQuery` names
    /// (a fixed statement returning one `channel` column). The channel must be a plain
    /// lowercase identifier: it goes into the `LISTEN` statement's text, which takes no
    /// parameters.
    init(conninfo: String, channelQuery: String) throws {
        handle = try Self.connect(conninfo)
        do {
            let name = try Self.value(PQexec(handle, channelQuery), handle)
            guard !name.isEmpty, name.utf8.allSatisfy({ Self.identifierBytes.contains($0) }) else {
                throw PostgresError(sqlState: "channel", message: "the channel name is not a plain identifier")
            }
            channel = name
            _ = try Self.value(PQexec(handle, "LISTEN \(name)"), handle)
        } catch {
            PQfinish(handle)
            throw error
        }
    }

    deinit { PQfinish(handle) }

    /// The socket to wait on for the server's messages.
    var socket: Int32 { PQsocket(handle) }

    /// The server process serving this connection (tests end it to cut the connection).
    var backendPID: Int32 { PQbackendPID(handle) }

    /// Reads what arrived on the socket and returns the payloads of the notifications on
    /// its channel, oldest first; throws when the connection broke.
    func receive() throws -> [String] {
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(sqlState: "connection",
                                message: String(cString: PQerrorMessage(handle)).trimmingSuffix())
        }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            if String(cString: notification.pointee.relname) == channel {
                payloads.append(String(cString: notification.pointee.extra))
            }
            PQfreemem(notification)
        }
        return payloads
    }

    static let identifierBytes = Set(Array("abcdefghijklmnopqrstuvwxyz0123456789_".utf8))

    /// Connects with keepalives on, so a peer that vanished without closing (a machine
    /// gone, a cable cut) is noticed, and a bounded connect, so a stop never waits long on
    /// a server that doesn't answer; `conninfo`'s own settings win over these defaults.
    private static func connect(_ conninfo: String) throws -> OpaquePointer {
        let settings = [("application_name", "tacit-listen"), ("keepalives", "1"), ("keepalives_idle", "30"),
                        ("keepalives_interval", "10"), ("keepalives_count", "3"), ("connect_timeout", "10"),
                        ("dbname", conninfo)]
        let keys = settings.map { strdup($0.0) }, values = settings.map { strdup($0.1) }
        defer { (keys + values).forEach { free($0) } }
        let keyPointers = keys.map { UnsafePointer($0) } + [nil],
            valuePointers = values.map { UnsafePointer($0) } + [nil]
        // Values expanded from `dbname` override those before it in the list.
        guard let opened = PQconnectdbParams(keyPointers, valuePointers, 1) else {
            throw PostgresError(sqlState: "connection", message: "out of memory")
        }
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(opened)).trimmingSuffix()
            PQfinish(opened)
            throw PostgresError(sqlState: "connection", message: message)
        }
        PQsetNoticeProcessor(opened, { _, _ in }, nil)
        return opened
    }

    /// The first column of the first row of `result` ("" when it has none), or its error.
    private static func value(_ result: OpaquePointer?, _ handle: OpaquePointer) throws -> String {
        defer { PQclear(result) }
        guard let result else {
            throw PostgresError(sqlState: "connection",
                                message: String(cString: PQerrorMessage(handle)).trimmingSuffix())
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK: return ""
        case PGRES_TUPLES_OK: return PQntuples(result) > 0 ? String(cString: PQgetvalue(result, 0, 0)) : ""
        default:
            let state = PQresultErrorField(result, Int32(Character("C").asciiValue!)).map { String(cString: $0) }
                ?? "connection"
            let message = PQresultErrorField(result, Int32(Character("M").asciiValue!)).map { String(cString: $0) }
                ?? "error"
            throw PostgresError(sqlState: state, message: message)
        }
    }
}
