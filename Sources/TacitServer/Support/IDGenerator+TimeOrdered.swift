import Foundation
import TacitCore
import TacitCrypto

extension IDGenerator {
    /// Ids that sort by creation time, like ULIDs: 48 bits of milliseconds since 1970
    /// in hex (hex keeps byte order), then 80 random bits in URL-safe base64, which
    /// alone make an id unguessable. New rows land at the end of the store's indexes
    /// instead of on a random page each, so a commit writes a few hot pages rather
    /// than one page per row.
    public static func timeOrdered(prefix: String, now: @escaping @Sendable () -> Date = Date.init) -> IDGenerator {
        IDGenerator {
            let milliseconds = UInt64(max(0, now().timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
            let time = String(milliseconds, radix: 16)
            return prefix + String(repeating: "0", count: 12 - time.count) + time
                + Base64.urlEncode(SecureRandom.bytes(10))
        }
    }
}
