import Foundation
import TacitCore
import TacitCrypto

/// Names and shapes the Twilio Verify v2 face shares across its files: the face's name
/// on verifications, its ids, its channels and its limits, as Twilio documents them.
enum TwilioFace {
    /// What a verification started here records as its face (timeline, console, `/v1`).
    static let name = "twilio"
    /// Twilio's verifications live 10 minutes; each send starts the clock again.
    static let defaultTimeout = 600
    /// Twilio's limit on sends per verification: the sixth answers 60203.
    static let maxSends = 5

    /// Verification sids as Twilio makes them, `VE` and 32 hex digits: here 48 bits of
    /// milliseconds first, then 80 random bits, so they sort by creation time like
    /// `IDGenerator.timeOrdered` and store indexes stay append-only. The face mints the
    /// verification's own id this way, so `/v1`, the console and the timeline use it too.
    static func verificationSids(now: @escaping @Sendable () -> Date) -> IDGenerator {
        IDGenerator {
            let milliseconds = UInt64(max(0, now().timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
            let time = String(milliseconds, radix: 16)
            return "VE" + String(repeating: "0", count: 12 - time.count) + time + Hex.encode(SecureRandom.bytes(10))
        }
    }

    /// Whether `text` has the shape of a verification sid (so anything else is never looked up).
    static func isVerificationSid(_ text: String) -> Bool {
        text.utf8.count == 34 && text.hasPrefix("VE") && text.utf8.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// A send attempt's sid, `VL` and 32 hex digits, the same every time it is read:
    /// derived from the verification's sid and the attempt's place among its steps.
    static func attemptSid(_ verificationSid: String, index: Int) -> String {
        "VL" + Hex.encode(Array(SHA256.hash(Array("\(verificationSid):\(index)".utf8)).prefix(16)))
    }

    /// Twilio's dates: seconds, no fraction (`2015-07-30T20:00:00Z`).
    static func date(_ date: Date) -> String {
        let text = Timestamp.format(date)
        return text.count > 20 ? String(text.prefix(19)) + "Z" : text
    }
}

extension UInt8 {
    var isHexDigit: Bool { (48...57).contains(self) || (97...102).contains(self) || (65...70).contains(self) }
}

/// Twilio's channel names onto Tacit's steps: `call` is a voice call, `sna` the silent step.
enum TwilioChannel: String, Sendable, CaseIterable {
    case sms, call, whatsapp, sna

    var channel: Channel {
        switch self {
        case .sms: .sms
        case .call: .voice
        case .whatsapp: .whatsapp
        case .sna: .silentAuth
        }
    }

    init(_ channel: Channel) {
        switch channel {
        case .sms: self = .sms
        case .voice: self = .call
        case .whatsapp: self = .whatsapp
        case .silentAuth: self = .sna
        }
    }
}
