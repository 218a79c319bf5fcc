import Foundation
import TacitProviderKit

/// What a delivery receipt says about one message: its id, its final state and the
/// network's error code. Read from the `receipted_message_id` and `message_state` TLVs
/// when the SMSC sends them, else from the de-facto receipt text of SMPP 3.4 Appendix B
/// (`id:… sub:… dlvrd:… submit date:… done date:… stat:DELIVRD err:000 text:…`).
struct SMPPReceiptText: Equatable {
    /// The Appendix B state words; `message_state` values map onto the same words.
    static let delivered: Set<String> = ["DELIVRD"]
    static let failed: Set<String> = ["UNDELIV", "REJECTD", "EXPIRED", "DELETED"]
    static let states: [UInt8: String] = [
        1: "ENROUTE", 2: "DELIVRD", 3: "EXPIRED", 4: "DELETED", 5: "UNDELIV", 6: "ACCEPTD", 7: "UNKNOWN", 8: "REJECTD",
    ]

    var messageId: String
    var state: String
    /// Digits only; nil when the receipt gives none or `000`.
    var errorCode: String?

    init?(_ deliver: SMPPDeliver) {
        let fields = Self.fields(deliver.shortMessage)
        let tlvId = deliver.tlvs[SMPPDeliver.receiptedMessageIdTag].map { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let tlvState = deliver.tlvs[SMPPDeliver.messageStateTag].flatMap { $0.count == 1 ? Self.states[$0[0]] : nil }
        guard let id = tlvId ?? fields["id"], !id.isEmpty, let state = tlvState ?? fields["stat"]?.uppercased() else {
            return nil
        }
        messageId = id
        self.state = state
        errorCode = fields["err"].flatMap { code in
            (1...8).contains(code.count) && code.allSatisfy({ $0.isASCII && $0.isNumber }) && Int(code) != 0
                ? code
                : nil
        }
    }

    /// The `key:value` pairs before `text:`, which is the message's own words and may say anything.
    static func fields(_ octets: [UInt8]) -> [String: String] {
        var text = String(decoding: octets.prefix(255), as: UTF8.self)
        if let range = text.range(of: "text:", options: .caseInsensitive) { text = String(text[..<range.lowerBound]) }
        text = text.replacingOccurrences(of: "submit date:", with: "submit_date:", options: .caseInsensitive)
            .replacingOccurrences(of: "done date:", with: "done_date:", options: .caseInsensitive)
        var fields: [String: String] = [:]
        for token in text.split(separator: " ") {
            let parts = token.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].lowercased()
            if fields[key] == nil { fields[key] = String(parts[1]) }
        }
        return fields
    }

    var outcome: ProviderReceipt.Outcome {
        Self.delivered.contains(state) ? .delivered : Self.failed.contains(state) ? .failed : .progress
    }
}
