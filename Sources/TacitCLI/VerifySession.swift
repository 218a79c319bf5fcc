import Foundation
import TacitKit

/// One `tacit verify` run: the app side (start, code checks) and the device side
/// (the silent check) against one server, followed through `VerificationFlowDriver`.
actor VerifySession {
    let options: VerifyOptions
    let context: CommandContext
    let client: TacitClient
    let display: VerifyDisplay
    private var codeTask: Task<Void, Never>?
    private var flowTask: Task<VerificationFlow.State?, Never>?
    private var ranOutOfInput = false
    /// Set the moment Ctrl-C arrives, so `run` waits for the cancellation and answers 130.
    private var interruption: Task<Void, Never>?

    init(options: VerifyOptions, context: CommandContext) {
        self.options = options
        self.context = context
        client = TacitClient(baseURL: options.server, apiKey: options.apiKey)
        display = VerifyDisplay(json: options.json, context)
    }

    /// Runs to a final state; returns the exit status.
    func run() async -> Int32 {
        display.header(options)
        let baseline = options.autoCode ? (try? await client.handsetInbox(options.number).count) ?? 0 : 0
        let entry = VerifyCodeEntry(client: client, options: options, display: display, input: context.input,
                                    inboxBaseline: baseline)
        let driver = makeDriver()
        let flow = Task { await self.follow(driver, entry: entry) }
        flowTask = flow
        let final = await flow.value
        codeTask?.cancel()
        if let interruption {
            await interruption.value
            return 130
        }
        return await VerifyOutcome(session: self).finish(final, ranOutOfInput: ranOutOfInput)
    }

    /// Ctrl-C: cancels a verification still in progress so it does not linger as pending.
    func interrupt() async {
        if interruption == nil { interruption = Task { await self.cancelForInterrupt() } }
        await interruption?.value
    }

    private func cancelForInterrupt() async {
        flowTask?.cancel()
        codeTask?.cancel()
        if let id = display.requestId, display.snapshot.verification?.status == .pending {
            try? await client.cancel(id)
        }
        context.printError("tacit: interrupted; the verification was cancelled")
    }

    private func makeDriver() -> VerificationFlowDriver {
        let server = options.server
        let transport = options.cellularTransport
        let display = display
        return VerificationFlowDriver(
            service: VerifyObservedService(client: client, display: display), pollInterval: .seconds(1),
            silentAuth: { verification in
                let result = await SilentAuth.run(verification, baseURL: server, transport: transport)
                display.silentResult(result)
                return result
            })
    }

    private func follow(_ driver: VerificationFlowDriver, entry: VerifyCodeEntry) async -> VerificationFlow.State? {
        var last: VerificationFlow.State?
        for await state in driver.start(options.request) {
            last = state
            switch state {
            case .enteringSmsCode(let id): askForCode(entry, id, .sms)
            case .enteringVoiceCode(let id): askForCode(entry, id, .voice)
            case .enteringWhatsAppCode(let id): askForCode(entry, id, .whatsapp)
            case .enteringEmailCode(let id): askForCode(entry, id, .email)
            default: break
            }
        }
        return last
    }

    private func askForCode(_ entry: VerifyCodeEntry, _ id: String, _ channel: Channel) {
        codeTask?.cancel()
        codeTask = Task {
            if await entry.run(id, channel: channel) == .noInput { await self.inputEnded() }
        }
    }

    /// Cancels the verification, and only then the flow: the flow's end lets `run` cancel the
    /// task this runs on, which would cut the cancel's own request short.
    private func inputEnded() async {
        ranOutOfInput = true
        if let id = display.requestId { try? await client.cancel(id) }
        flowTask?.cancel()
    }
}
