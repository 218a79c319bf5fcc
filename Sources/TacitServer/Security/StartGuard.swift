import Foundation
import TacitCore
import TacitHTTP
import TacitPhone
import TacitStore

/// The checks a new verification passes before the route sees it: per-address and
/// per-number limits, destination lists, the number's remaining send quota, and the
/// sequential-number velocity guard. A refused start sends nothing; it shows in
/// `/metrics` and a log line that names the reason, never the number.
/// The per-address limit counts the end user's address (`device_ip`), never an authenticated
/// caller's own (docs/security.md#the-end-users-address); a safe-listed number or
/// `risk_check: disable` skips it and the velocity guard (docs/fraud.md#safe-list-and-risk_check).
struct StartGuard: Sendable {
    let limiter: RateLimiter
    let configuration: SecurityConfiguration
    let clock: any TacitClock
    let dev: Bool
    let metrics: SecurityMetrics
    let log: SecurityLog
    /// The applications' safe lists, read from the store's copy kept a second; nil when the
    /// store keeps none.
    var safeLists: (any SafeListStore)?
    /// The applications' settings (their protection level) and test numbers, each read from
    /// the store's copy kept a second; nil when the store keeps none.
    var applications: (any ApplicationStore)?
    var testNumbers: (any TestNumberStore)?
    /// The automatic prefix blocks, judged in memory (docs/fraud.md#prefix-blocks).
    var ledger: PrefixLedger?
    /// Where a start refused as blocked is counted (docs/api.md#the-summary); nil when the store keeps no rollups.
    var insights: (any InsightStore)?
    /// Where a fraud rule's refusal goes besides the answer: metrics, log, webhook.
    var decisions: FraudDecisions?

    /// Runs `route` once the start passes every check, and counts it against its number's
    /// start limit only when the route created a verification: a start refused here or by
    /// the route (409 while another verification is pending, a bad body) spends nothing,
    /// so parallel starts can't lock a number out for the limit's window.
    /// `start` is the body as the route reads it, parsed once: the guard judges the very
    /// number the route then verifies.
    func admit(_ request: HTTPRequest, _ start: StartSubmission,
               then route: () async -> HTTPResponse) async throws -> HTTPResponse {
        let application = Self.application
        let (contact, bypass) = try await check(request, start, application: application)
        let response = await FraudBypass.$current.withValue(bypass) { await route() }
        // 202 from /v1, 201 from a face that answers a create (and a re-send: one more send) with 201.
        let created = (response.status == 202 || response.status == 201)
            && response.header("Idempotent-Replayed") == nil
        if let bypass, created { metrics.decided("bypassed", rule: bypass.reason.rawValue) }
        if let contact, created {
            // Created: one more verification for the number (or address), in its application's
            // count and the shared one. A verification is pending per contact and application at
            // most, so a start can't have slipped in since the check.
            for (kind, subject, limit) in configuration.startCounter.counters(contact, application: application) {
                _ = try? await limiter.consume(kind, subject, limit, at: clock.now())
            }
        }
        return response
    }

    /// The application the start is for: the one the gate bound for the request's credential.
    static var application: String { ActingApplication.id ?? Application.defaultID }

    /// Refuses the start or returns the contact (`Verification.contact`) whose start limit it
    /// spends when created, and the automatic rules it skipped, if it skips them.
    private func check(_ request: HTTPRequest, _ start: StartSubmission,
                       application: String) async throws -> (contact: String?, bypass: FraudBypass?) {
        let now = clock.now()
        var bypass = try await bypass(start, application: application)
        if let address = limitedAddress(request, start) {
            if bypass != nil {
                bypass?.rules.append("address_limit")
            } else {
                let detail = "Too many verifications were started from this address; retry later."
                try await refuse("address_limit") {
                    try await limiter.spend("start-address", address, configuration.verificationsPerAddress, at: now,
                                            detail: detail)
                }
            }
        }
        if let address = start.address {
            // An address has no destination list or sequence; its limits are a number's.
            try await checkLimits(address, region: nil, application: application, now: now)
            return (address, bypass)
        }
        // A body the route will refuse anyway (bad JSON, bad number) is left to the route.
        guard let number = start.parsedNumber else { return (nil, bypass) }
        if number.isVirtual, !configuration.limitVirtualRange { return (nil, bypass) }
        if let reason = configuration.destinations.refusal(e164: number.e164, region: number.region) {
            note(reason, region: number.region)
            throw APIProblem.destinationDenied
        }
        let level = try await applications?.applicationSettings(id: application)?.fraudLevel ?? .basic
        if let problem = LineTypeRules.refusal(number.lineType, level: level) {
            await decided(.lineType(number, application: application))
            await countBlocked(start, number, application: application, at: now)
            throw problem
        }
        try await checkLimits(number.e164, region: number.region, application: application, now: now)
        if bypass == nil {
            try await checkVelocity(number, now: now)
        } else if configuration.velocityBudgets.contains(where: { $0.limit.limit > 0 }) {
            bypass?.rules.append("sequential_numbers")
        }
        // Last, so a start the limits refuse keeps their answer.
        if bypass == nil, let rule = PrefixRule.at(level) {
            try await checkPrefix(start, number, application: application, rule: rule, now: now)
        }
        return (number.e164, bypass)
    }

    /// The address the per-address limit counts for this start: the end user's (`device_ip`)
    /// when the start names one; else the caller's only when it called without a credential
    /// (dev mode's keyless loopback caller, counted when `limitLoopbackInDev` is set). An
    /// authenticated caller is the app's backend, whose one address all its users share: it is
    /// never the reason a start is refused (docs/security.md#the-end-users-address).
    private func limitedAddress(_ request: HTTPRequest, _ start: StartSubmission) -> String? {
        if let device = start.deviceIP { return device }
        // Every credential (an API key, a face's Basic or JWT) comes in `Authorization`, and a
        // start reaches the guard only once its credential was accepted.
        guard request.header("authorization") == nil else { return nil }
        return dev && request.isLoopback && !configuration.limitLoopbackInDev ? nil : request.remoteAddress
    }

    /// The start's bypass of the automatic rules: asked for by the request, else earned by a
    /// number on the application's safe list (read from the copy kept a second).
    private func bypass(_ start: StartSubmission, application: String) async throws -> FraudBypass? {
        if start.riskCheckDisabled { return FraudBypass(reason: .riskCheck) }
        guard let safeLists, let number = start.parsedNumber else { return nil }
        let listed = try await safeLists.safeList(application: application).contains { $0.matches(number.e164) }
        return listed ? FraudBypass(reason: .safeList) : nil
    }

    /// Refuses a start whose number lies in a blocked prefix of the application, or whose
    /// prefix the rule blocks now. A test number's start decides no block, but is refused
    /// inside one: a test number is never active in a blocked range.
    private func checkPrefix(_ start: StartSubmission, _ number: PhoneNumber, application: String, rule: PrefixRule,
                             now: Date) async throws {
        guard let ledger else { return }
        let isTest = try await testNumbers?.testNumbers(application: application)
            .contains { $0.phoneNumber == number.e164 && $0.isActive(at: now) } ?? false
        guard case .blocked(let block, let isNew) = await ledger.judge(number.e164, application: application,
                                                                         rule: rule, deciding: !isTest) else { return }
        await decided(.prefix(block, number: number, application: application, now: now))
        await countBlocked(start, number, application: application, at: now)
        if isNew {
            let kind = PrefixLedger.isNetwork(block.prefix) ? "network" : "prefix"
            log.warning("blocked \(kind) \(block.shownPrefix) of application \(application) for"
                        + " \(Int(block.blockedUntil.timeIntervalSince(block.blockedAt)))s (rule \(block.rule):"
                        + " \(block.sends) sends, \(block.conversions) conversions)")
        }
        throw PrefixRule.refusal(block, now: now)
    }

    /// The contact's send quota, start limit and run of wrong codes, in that order.
    private func checkLimits(_ contact: String, region: String?, application: String, now: Date) async throws {
        try await checkSendQuota(contact, region: region, application: application, now: now)
        try await refuse("number_limit") {
            try await limiter.require(configuration.startCounter, contact, application: application, at: now,
                                      detail: "Too many verifications were started for this number; retry later.")
        }
        try await checkUnlocked(contact, region: region, application: application, now: now)
    }

    /// A number whose send quota is spent can receive no code, so the start is refused
    /// up front rather than run a workflow whose every step would fail.
    private func checkSendQuota(_ contact: String, region: String?, application: String, now: Date) async throws {
        try await refuse("send_limit", region: region) {
            try await limiter.require(configuration.sendCounter, contact, application: application, at: now,
                                      detail: "Too many codes were sent to this number; retry later.")
        }
    }

    /// A number whose checks are locked (its run of wrong codes is at the application's
    /// limit or the shared one) could check no code, so the start is refused up front
    /// rather than send a code that can't work: the same 429 a check gets meanwhile.
    private func checkUnlocked(_ contact: String, region: String?, application: String, now: Date) async throws {
        let counter = configuration.failedCheckCounter
        guard counter.perApplication.limit > 0 || counter.ceiling.limit > 0 else { return }
        try await refuse("failed_checks", region: region) {
            try await limiter.require(counter, contact, application: application, at: now,
                                      detail: FailedCheckGuard.lockedDetail)
        }
    }

    /// Counts a start the line-type rule refused as one blocked send by its number's region and
    /// prefix: nothing else is stored for it, so this one rollup write is all it costs. A store
    /// that can't count it now leaves the answer as it is.
    private func countBlocked(_ start: StartSubmission, _ number: PhoneNumber, application: String,
                              at now: Date) async {
        guard let insights else { return }
        let channel = (try? start.request.get())?.options.workflow.first
        let deltas = InsightTally.refusedStart(channel: channel, region: number.region,
                                               prefix: NumberPlace.prefix(of: number), at: now)
        try? await insights.addRollups(deltas, application: application)
    }

    func refuse(_ reason: String, region: String? = nil, _ body: () async throws -> Void) async throws {
        do { try await body() } catch let problem as APIProblem {
            note(reason, region: region)
            throw problem
        }
    }

    /// A fraud rule's refusal: counted and logged as any refusal, and its webhook enqueued.
    private func decided(_ refusal: FraudRefusal) async {
        guard let decisions else {
            note(refusal.rule, region: refusal.region)
            return metrics.decided("blocked", rule: refusal.rule)
        }
        await decisions.blocked(refusal)
    }

    private func note(_ reason: String, region: String?) {
        metrics.refused(reason, at: "start")
        log.warning("refused a verification start: \(reason)" + (region.map { " (region \($0))" } ?? ""))
    }
}
