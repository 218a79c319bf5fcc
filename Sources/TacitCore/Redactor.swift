import Foundation

/// The one place every timeline event passes through before it is stored.
/// Phone numbers keep `+` and two digits and their last 4, codes at most their last
/// 2 digits, secrets nothing. Free text is scrubbed too, since device events and
/// notes may carry what a caller typed.
public enum Redactor {
    public static let mask = "•"

    /// Turns a draft into the stored event.
    public static func event(_ draft: EventDraft, seq: Int, at: Date, requestId: String) -> TimelineEvent {
        TimelineEvent(
            seq: seq, at: at, requestId: requestId, source: draft.source, channel: draft.channel,
            label: scrub(draft.label), outcome: draft.outcome, note: scrub(draft.note),
            data: draft.data.mapValues(redact)
        )
    }

    public static func redact(_ value: EventValue) -> JSONValue {
        switch value {
        case .text(let text): return .string(scrub(text))
        case .int(let number): return .number(Double(number))
        case .bool(let flag): return .bool(flag)
        case .date(let date): return .string(Timestamp.format(date))
        case .phone(let number): return .string(phone(number))
        case .code(let digits): return .string(code(digits))
        case .secret: return .string("[redacted]")
        case .providerId(let id): return .string(providerId(id))
        case .mobileNetwork(let network): return .string(MobileNetwork.code(network) ?? scrub(network))
        case .list(let values): return .array(values.map(redact))
        case .object(let values): return .object(values.mapValues(redact))
        case .null: return .null
        }
    }

    /// An id of at most 64 letters, digits, `-` or `_`, with at least one letter, is kept
    /// (an `SM…` sid, or a `0A00…` id that may start with a digit); whatever else was
    /// passed as one (a number or a code, all digits; free text) is scrubbed.
    public static func providerId(_ id: String) -> String {
        let shaped = (1...64).contains(id.count) && id.contains { $0.isASCII && $0.isLetter }
            && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return shaped ? id : scrub(id)
    }

    /// `+99012345670` → `+99•••••5670`. Anything too short to keep 4 digits private is fully masked.
    /// Every event that names the number passes here: its digits are read as bytes, since a
    /// walk over `Character`s costs grapheme breaking for what is ASCII.
    public static func phone(_ number: String) -> String {
        let digits = number.utf8.filter(\.isDigitByte)
        guard digits.count >= 8 else { return fiveMasks }
        return "+" + String(decoding: digits.prefix(2), as: UTF8.self) + fiveMasks
            + String(decoding: digits.suffix(4), as: UTF8.self)
    }

    /// What stands for the hidden middle of a number, and for a number too short to show any of.
    static let fiveMasks = String(repeating: mask, count: 5)

    /// `123456` → `••••56`.
    public static func code(_ code: String) -> String {
        guard code.count > 4 else { return String(repeating: mask, count: code.count) }
        return String(repeating: mask, count: code.count - 2) + code.suffix(2)
    }

    /// Masks every run of 4 or more digits (a code or a number typed into free text),
    /// every token-shaped word and every email address.
    public static func scrub(_ text: String) -> String {
        scrubAddresses(scrubTokens(maskDigits(text)))
    }

    /// `text` with each run of an optional "+" and digits masked: 7 digits or more as a
    /// number (`phone`), 4 to 6 as a code. Works on UTF-8 bytes: digits and "+" are ASCII,
    /// everything else is kept as is. The text is copied only from its first run that changes:
    /// most notes quote a number already redacted and nothing else, and come back as they were.
    private static func maskDigits(_ text: String) -> String {
        var text = text
        let masked = text.withUTF8 { bytes -> [UInt8]? in
            var output: [UInt8]?
            var copiedUpTo = 0
            var index = 0
            // A "+" right after a run is kept as it is, and starts no run of its own.
            var afterRun = false
            while index < bytes.count {
                let first = bytes[index]
                guard first.isDigitByte || (first == UInt8(ascii: "+") && !afterRun) else {
                    index += 1
                    afterRun = false
                    continue
                }
                let start = index
                let plus = first == UInt8(ascii: "+")
                if plus { index += 1 }
                while index < bytes.count, bytes[index].isDigitByte { index += 1 }
                afterRun = true
                let digits = bytes[(plus ? start + 1 : start)..<index]
                // Four digits right after the mask are the kept tail of a number that was
                // already redacted (a note quoting `+99•••••5670`): masking them again says nothing more.
                let keptTail = digits.count == 4 && !plus && start >= maskBytes.count
                    && bytes[(start - maskBytes.count)..<start].elementsEqual(maskBytes)
                guard digits.count >= 4, !keptTail else { continue }
                let replacement = digits.count >= 7
                    ? phone(String(decoding: bytes[start..<index], as: UTF8.self))
                    : (plus ? "+" : "") + code(String(decoding: digits, as: UTF8.self))
                if output == nil { output = []; output!.reserveCapacity(bytes.count + 16) }
                output! += bytes[copiedUpTo..<start]
                output! += replacement.utf8
                copiedUpTo = index
            }
            guard var output else { return nil }
            output += bytes[copiedUpTo...]
            return output
        }
        return masked.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    private static let maskBytes = Array(mask.utf8)

    static let tokenPrefixes = ["ct_", "sa_", "tk_", "whsec_", "cu_", "sk_"]
    private static let tokenPrefixBytes = tokenPrefixes.map { Array($0.utf8) }

    private static func scrubTokens(_ text: String) -> String {
        guard mayHoldToken(text) else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.count >= 12 && mayHoldToken(String(word)) ? "[redacted]" : String(word)
        }.joined(separator: " ")
    }

    /// Whether a token prefix starts anywhere a token can (at the start or after a byte
    /// that can't be part of one), in one pass over the bytes: every event's label and
    /// note comes through here, and most hold no token. A word holding one is redacted.
    private static func mayHoldToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Every token prefix has an underscore: most text has none.
            guard bytes.contains(UInt8(ascii: "_")) else { return false }
            for start in bytes.indices where start == 0 || !bytes[start - 1].isTokenByte {
                for prefix in tokenPrefixBytes where bytes.count - start >= prefix.count {
                    if prefix.indices.allSatisfy({ bytes[start + $0] == prefix[$0] }) { return true }
                }
            }
            return false
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
