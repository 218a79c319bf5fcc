import Foundation
import TacitCore
import TacitCrypto
import TacitServer

extension IDGenerator {
    /// Vonage-shaped request ids: a UUID, as Vonage's are, laid out as UUIDv7 (RFC 9562
    /// §5.7): 48 bits of milliseconds first, then the version, variant and 74 random bits.
    /// Minted by the face as the verification's own id, so `/v1`, the console and the
    /// timeline name it the same and no mapping table is needed; and time-ordered like
    /// `timeOrdered`, so new rows land at the end of the store's indexes.
    static func vonageRequestID(now: @escaping @Sendable () -> Date = Date.init) -> IDGenerator {
        IDGenerator {
            let milliseconds = UInt64(max(0, now().timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
            var bytes = (0..<6).map { UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64($0))) }
                + SecureRandom.bytes(10)
            bytes[6] = 0x70 | (bytes[6] & 0x0F)
            bytes[8] = 0x80 | (bytes[8] & 0x3F)
            let hex = Hex.encode(bytes)
            let cuts = [8, 12, 16, 20]
            var text = ""
            for (index, character) in hex.enumerated() {
                if cuts.contains(index) { text.append("-") }
                text.append(character)
            }
            return text
        }
    }

    /// True when `text` has a Vonage request id's shape (a lowercase UUID); any other is unknown.
    static func isVonageRequestID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12]
            && parts.allSatisfy { $0.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) } }
    }
}
