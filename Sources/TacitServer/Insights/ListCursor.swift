import Foundation
import TacitCrypto
import TacitStore

/// The list's `next_cursor` (docs/api.md#the-list): where the page before ended, signed
/// with the server's keys over the application and the filters it was written for, so a
/// cursor that was altered, made up, or carried to another application or other filters
/// is refused rather than read.
struct ListCursor {
    let secrets: ServerSecrets

    /// The cursor for the page after `position`, for `scope` (the application and filters).
    func write(_ position: ListPosition, scope: String) throws -> String {
        let payload = Self.payload(position)
        let mac = try secrets.tokenHash(Self.message(payload, scope: scope))
        return Base64.urlEncode(Array(payload.utf8)) + "." + Base64.urlEncode(Array(mac.prefix(16)))
    }

    /// The position `text` holds, nil when it is not a cursor this server wrote for `scope`.
    func read(_ text: String, scope: String) -> ListPosition? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, text.count <= 512, let payloadBytes = Base64.urlDecode(String(parts[0])),
              let mac = Base64.urlDecode(String(parts[1])), mac.count == 16 else { return nil }
        let payload = String(decoding: payloadBytes, as: UTF8.self)
        guard let hashes = try? secrets.tokenHashes(Self.message(payload, scope: scope)),
              hashes.contains(where: { ConstantTime.equals(Array($0.prefix(16)), mac) }) else { return nil }
        let fields = payload.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard fields.count == 2, let bits = UInt64(fields[0], radix: 16), !fields[1].isEmpty else { return nil }
        return ListPosition(createdAt: Date(timeIntervalSince1970: Double(bitPattern: bits)), id: String(fields[1]))
    }

    /// The creation time's exact bits, so the next page starts exactly after the row.
    private static func payload(_ position: ListPosition) -> String {
        String(position.createdAt.timeIntervalSince1970.bitPattern, radix: 16) + "|" + position.id
    }

    private static func message(_ payload: String, scope: String) -> String {
        "insights-list-cursor\n" + scope + "\n" + payload
    }
}
