import Foundation
import TacitCore

extension Verification {
    /// Gives drafts the next sequence numbers (gap-free per verification) and redacts
    /// them: what every store calls inside the transaction that writes the change.
    public mutating func record(_ drafts: [EventDraft], at: Date) -> [TimelineEvent] {
        drafts.map { draft in
            lastSeq += 1
            return Redactor.event(draft, seq: lastSeq, at: at, requestId: id)
        }
    }
}
