import Foundation
import TacitCore
import TacitPhone
import TacitStore

/// The fraud rules a start meets in the runner, whichever API made it (docs/fraud.md): the
/// number's line type, read when the route parsed it, and the application's test numbers,
/// read from the store's copy kept for a second, so a create gains no store read; and the
/// start guard's bypass of the automatic rules, if any, as a `fraud:bypassed` event. The
/// application's geo permissions, read from the same kind of copy, refuse the start, mark the
/// channels whose steps are skipped, or record what they would have refused.
extension WorkflowRunner {
    /// Refuses a start its line can't take, or whose every step the geo permissions refuse, keeps
    /// the channels they refuse (their steps are skipped) and records those only monitored,
    /// marks a test number's start (its fixed code, sealed, then every code step takes it and
    /// nothing is sent), and puts the line type and the test number on the start's first event.
    /// Returns what the geo permissions only monitored, counted once the verification is stored.
    func applyFraudRules(_ draft: inout Verification,
                         noting events: inout [EventDraft]) async throws -> [(Channel, region: String?)] {
        if let refusal = LineTypeRules.workflowRefusal(draft) { throw refusal }
        if let lineType = draft.lineType, !events.isEmpty { events[0].data["line_type"] = .text(lineType) }
        let geo = try await geoRules(for: draft)
        var monitored: [(Channel, region: String?)] = []
        if var bypass = FraudBypass.current {
            if geo?.rules.applies == true { bypass.rules.append("geo") }
            if !events.isEmpty { events.append(bypass.event) }
        } else if let (rules, region) = geo {
            if rules.refusesEvery(draft.workflow.map(\.channel)) {
                await countBlocked(draft)
                await fraud?.blocked(.geo(phoneNumber: draft.phoneNumber, region: region, channels: rules.refused,
                                          application: draft.applicationId))
                throw GeoRules.refusal(region: region)
            }
            draft.geoRefusedChannels = rules.refused
            if !events.isEmpty { events += rules.monitored.map { GeoRules.monitoredEvent($0, region: region) } }
            monitored = rules.monitored.map { ($0, region) }
        }
        try await markTestNumber(&draft, noting: &events)
        return monitored
    }

    /// Counts and logs what the geo permissions only monitored on a start now stored.
    func noteMonitored(_ monitored: [(Channel, region: String?)]) {
        for (channel, region) in monitored { fraud?.monitored("geo", channel: channel, region: region) }
    }

    private func markTestNumber(_ draft: inout Verification, noting events: inout [EventDraft]) async throws {
        guard let test = try await activeTestNumber(for: draft) else { return }
        // A code sealed under a key the ring no longer has can't be used: the number is an ordinary one.
        guard let code = try? secrets.fieldProtection.open(test.sealedCode) else { return }
        draft.sealedTestCode = test.sealedCode
        draft.codeLength = code.count
        guard !events.isEmpty else { return }
        events[0].data["test_number"] = .bool(true)
        events[0].note += " It is one of the application's test numbers: no message is sent, and its fixed code checks."
    }

    /// Counts a start the rules refused as one blocked send by its region, prefix and first channel
    /// (docs/api.md#the-summary), in one rollup write: nothing else is stored for it. A store that
    /// can't count it now leaves the refusal as it is.
    private func countBlocked(_ draft: Verification) async {
        let deltas = InsightTally.refusedStart(channel: draft.workflow.first?.channel, region: draft.region,
                                               prefix: draft.numberPrefix, at: clock.now())
        try? await store.addRollups(deltas, application: draft.applicationId)
    }

    /// The geo permissions' judgement of the draft's number and its country, nil when no
    /// permission of its application names a channel of its workflow: only then is the
    /// number's country looked up, so an application without permissions pays nothing.
    private func geoRules(for draft: Verification) async throws -> (rules: GeoRules, region: String?)? {
        guard let store = geoPermissionStore, !draft.phoneNumber.isEmpty else { return nil }
        let workflow = draft.workflow.map(\.channel)
        let permissions = try await store.geoPermissions(application: draft.applicationId)
        guard GeoRules.restricts(permissions, workflow) else { return nil }
        let region = (try? PhoneNumberParser().parse(draft.phoneNumber, allowVirtualRange: true))?.region
        return (GeoRules(permissions, region: region, workflow: workflow), region)
    }

    /// Ends, as skipped with reason `geo`, the active step while its channel may not reach the
    /// number's country, so the next step starts; before any silent check is begun or code issued.
    func skipGeoRefusedSteps(_ turn: inout Turn) throws(WorkflowRefusal) {
        while let step = turn.verification.currentStep,
              let reason = GeoRules.unreachable(turn.verification.workflow[step].channel, in: turn.verification) {
            try turn.handle(.unreachable(step: step, reason: reason))
        }
    }

    /// The application's test number for the draft's number while it is active; never one on
    /// a line the rules refuse, so a test number can't open a premium range.
    private func activeTestNumber(for draft: Verification) async throws -> TestNumber? {
        guard let store = testNumberStore else { return nil }
        if let lineType = draft.lineType, LineTypeRules.blocked.contains(where: { $0.rawValue == lineType }) {
            return nil
        }
        let now = clock.now()
        return try await store.testNumbers(application: draft.applicationId)
            .first { $0.phoneNumber == draft.phoneNumber && $0.isActive(at: now) }
    }

    /// Ends, as skipped, a silent first step of a test number's start: no provider is asked.
    func skipSilentTestStep(_ turn: inout Turn) throws(WorkflowRefusal) {
        guard turn.verification.sealedTestCode != nil, let step = turn.verification.currentStep,
              turn.verification.workflow[step].channel == .silentAuth else { return }
        try turn.handle(.unreachable(step: step, reason: .testNumber))
    }

    /// The code for a code step of `verification`: its test number's fixed code, else a new one.
    func code(for verification: Verification) throws -> (code: String, isTest: Bool) {
        guard let sealed = verification.sealedTestCode else {
            return (codes.generate(verification.codeLength), false)
        }
        return (String(decoding: try secrets.fieldProtection.open(sealed), as: UTF8.self), true)
    }
}
