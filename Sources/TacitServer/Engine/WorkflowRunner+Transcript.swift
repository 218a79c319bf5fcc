import TacitCore

extension WorkflowRunner {
    /// The events one transaction records, in the order they happened: drafts from
    /// outside the machine (a request, a provider's hops) and the machine's own typed
    /// events, worded by `Notes` as they are decided.
    struct Transcript {
        private(set) var drafts: [EventDraft]
        /// How many of the turn's effects have been looked at for events.
        private var worded = 0
        /// The message a delivery carried, which its `code_sent` event describes.
        private let composed: ComposedMessage?

        init(_ drafts: [EventDraft] = [], composed: ComposedMessage? = nil) {
            self.drafts = drafts
            self.composed = composed
        }

        /// Words the events the turn's decisions asked for since the last call.
        mutating func catchUp(_ turn: Turn) {
            let verification = turn.verification, composed = self.composed
            drafts += turn.effects[worded...].compactMap(\.event).flatMap { event in
                // A step a fraud rule skipped is a decision too: the rule and its figures come first.
                GeoRules.blockedEvent(event, of: verification)
                    + [Notes.draft(event, of: verification, composed: composed)]
            }
            worded = turn.effects.count
        }

        /// Records drafts from outside the machine after everything it decided so far.
        mutating func record(_ extra: [EventDraft], after turn: Turn) {
            catchUp(turn)
            drafts += extra
        }
    }
}
