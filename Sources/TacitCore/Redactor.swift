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
    public static func phone(_ number: String) -> String {
        let digits = number.filter(\.isASCIIDigit)
        guard digits.count >= 8 else { return String(repeating: mask, count: 5) }
        return "+" + digits.prefix(2) + String(repeating: mask, count: 5) + digits.suffix(4)
    }

    /// `123456` → `••••56`.
    public static func code(_ code: String) -> String {
        guard code.count > 4 else { return String(repeating: mask, count: code.count) }
        return String(repeating: mask, count: code.count - 2) + code.suffix(2)
    }

    /// Masks every run of 4 or more digits (a code or a number typed into free text),
    /// every token-shaped word and every email address.
    public static func scrub(_ text: String) -> String {
        guard holdsDigitsToMask(text) else { return scrubAddresses(scrubTokens(text)) }
        // Works on UTF-8 bytes: digits and "+" are ASCII, everything else is copied as is.
        let maskBytes = Array(mask.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        var run: [UInt8] = []
        func flush() {
            // A run is an optional "+" and then digits.
            let plus = run.first == UInt8(ascii: "+")
            let digits = run.dropFirst(plus ? 1 : 0)
            // Four digits right after the mask are the kept tail of a number that was
            // already redacted (a note quoting `+99•••••5670`): masking them again says nothing more.
            if digits.count == 4, !plus, output.suffix(maskBytes.count).elementsEqual(maskBytes) {
                output += run
            } else if digits.count >= 7 {
                output += phone(String(decoding: run, as: UTF8.self)).utf8
            } else if digits.count >= 4 {
                output += ((plus ? "+" : "") + code(String(decoding: digits, as: UTF8.self))).utf8
            } else {
                output += run
            }
            run.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            if (48...57).contains(byte) || (byte == UInt8(ascii: "+") && run.isEmpty) {
                run.append(byte)
            } else {
                if !run.isEmpty { flush() }
                output.append(byte)
            }
        }
        if !run.isEmpty { flush() }
        return scrubAddresses(scrubTokens(String(decoding: output, as: UTF8.self)))
    }

    /// Whether the masking pass below would change `text`: a run of 4 or more digits, other
    /// than the 4 a redacted number keeps right after its mask. Most notes quote a number
    /// already redacted (`+99•••••5670`) and nothing else, so they skip the pass's copy.
    private static func holdsDigitsToMask(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let maskBytes = Array(mask.utf8)
            var index = 0
            while index < bytes.count {
                let start = index
                let plus = bytes[index] == UInt8(ascii: "+")
                if plus { index += 1 }
                var digits = 0
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    digits += 1
                    index += 1
                }
                if digits >= 4 {
                    let afterMask = !plus && start >= maskBytes.count
                        && bytes[(start - maskBytes.count)..<start].elementsEqual(maskBytes)
                    if digits > 4 || !afterMask { return true }
                }
                if index == start { index += 1 }
            }
            return false
        }
    }

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
