import Foundation
import TacitKit
import TacitServer
import TacitTesting

/// The SDK suites' vocabulary over a live dev test application (virtual operator on),
/// driven through TacitKit as an app would.
struct KitCalls: Sendable {
    let app: TestApplication
    let base: URL
    var clock: ManualClock { app.clock }
    var client: TacitClient { TacitClient(baseURL: base) }
    static let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2")
    static let wifi = SocketCellularTransport(sourceAddress: "127.0.0.1")
    static let api = SocketCellularTransport()

    /// Runs `body` against a live application and always stops it.
    static func test(_ body: (KitCalls) async throws -> Void) async throws {
        // Real "now", as the SDK bounds a silent check by the server's expires_at; whole
        // seconds, as stored deadlines are rounded to milliseconds.
        let clock = ManualClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await TestApplication.test(.live, clock: clock) { app, _ in
            try await body(KitCalls(app: app, base: URL(string: app.baseURL)!))
        }
    }

    /// A driver whose silent check runs the SDK's device flow over `transport`,
    /// counting its runs.
    func driver(over transport: any CellularTransport = cellular, runs: Counter = Counter()) -> VerificationFlowDriver {
        let base = base
        return VerificationFlowDriver(service: client, pollInterval: .milliseconds(200)) { verification in
            runs.add()
            return await SilentAuth.run(verification, baseURL: base, transport: transport, apiTransport: Self.api)
        }
    }

    /// Starts a verification and collects every screen state to the end, entering
    /// the SMS code from the virtual handset whenever the flow asks for one.
    func collect(_ driver: VerificationFlowDriver, _ request: StartVerificationRequest) async throws -> [VerificationFlow.State] {
        var states: [VerificationFlow.State] = []
        for await state in driver.start(request) {
            states.append(state)
            if case .enteringSmsCode(let id) = state {
                _ = try await client.check(id, code: try await smsCode(id, request.phoneNumber))
            }
        }
        return states
    }

    /// The SMS code the handset received, read once the server's `sms:code_sent` event says it was sent.
    func smsCode(_ id: String, _ number: String) async throws -> String {
        for try await event in client.eventStream(id) where event.label == "sms:code_sent" { break }
        guard let code = try await client.handsetInbox(number).last(where: { $0.channel == .sms })?.code else {
            throw TacitError(type: "no-code", status: 0)
        }
        return code
    }

    /// The labels of the request's timeline so far.
    func labels(_ id: String) async throws -> [String] {
        try await client.events(id).map(\.label)
    }

    /// Moves the server's clock and fires the timers that became due.
    func advance(by seconds: TimeInterval) async {
        await app.advance(by: seconds)
    }
}
