import Foundation
import Synchronization
import TacitCore
import TacitCrypto

/// The built-in mobile operator of the `+990` range: it answers coverage checks,
/// issues gateway checks, plays the cellular gateway and answers SIM Swap. The
/// number's ending scripts every outcome (`OperatorScript`), and the request's
/// source address decides whether a device came over its cellular network.
public final class VirtualOperator: SilentAuthProvider, SimSwapChecker {
    public let configuration: OperatorConfiguration
    let clock: any TacitClock
    let sessions: any GatewaySessionStore
    /// Signs verdicts: `configuration.signingKey` unless a shared source is given.
    let keys: any OperatorKeySource
    /// The authorization server's codes, tokens and seen assertions: this process's memory.
    let grants = OperatorGrants()
    private let base = Mutex("http://127.0.0.1")

    /// `sessions` and `keys` default to this process's memory and `configuration`'s key;
    /// several instances on one store pass the store's, so any of them continues a check.
    public init(configuration: OperatorConfiguration = OperatorConfiguration(), clock: any TacitClock,
                sessions: any GatewaySessionStore = GatewaySessions(), keys: (any OperatorKeySource)? = nil) {
        self.configuration = configuration
        self.clock = clock
        self.sessions = sessions
        self.keys = keys ?? FixedOperatorKey(configuration.signingKey)
    }

    /// The URL the operator's routes are reachable at (known once its server listens).
    public var baseURL: String {
        get { base.withLock { $0 } }
        set { base.withLock { $0 = newValue.hasSuffix("/") ? String(newValue.dropLast()) : newValue } }
    }

    public var providerName: String { OperatorNotes.provider }

    /// The registered client with `clientId`, if any.
    func client(_ clientId: String?) -> OperatorClient? {
        guard let clientId else { return nil }
        return configuration.clients.first { $0.clientId == clientId }
    }

    /// Checks coverage and, when the number is covered, opens a single-use gateway
    /// session that ends with the silent step and answers only to the request's
    /// callback. The URL's last path segment is the session id.
    public func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        await hop()
        let number = request.phoneNumber
        switch OperatorScript.forNumber(number) {
        case nil, .noCoverage?:
            return .failed(.noCoverage, events: [OperatorNotes.coverage(number, covered: false)])
        case .carrierError?:
            return .failed(.carrierError, events: [OperatorNotes.carrierError(number)])
        default:
            let id = Base64.urlEncode(SecureRandom.bytes(16))
            let session = GatewaySession(number: number, redirectURI: request.callbackURL, expiresAt: request.expiresAt)
            do { try await sessions.open(session, id: id, now: clock.now()) } catch {
                return .failed(.unavailable, events: [OperatorNotes.coverage(number, covered: true)])
            }
            return .issued(checkURL: baseURL + "/operator/gateway/" + id,
                           events: [OperatorNotes.coverage(number, covered: true)])
        }
    }

    /// CAMARA SIM Swap as the engine asks it: nil for numbers that are not the operator's.
    public func swapped(phoneNumber: String, maxAgeHours: Int) async -> Bool? {
        await hop()
        guard let script = OperatorScript.forNumber(phoneNumber) else { return nil }
        guard let hours = Self.simChangeHoursAgo(script) else { return false }
        return hours <= maxAgeHours
    }

    /// When the SIM of `number` last changed, nil when not within the monitored period.
    func latestSimChange(_ number: String) -> Date? {
        guard let script = OperatorScript.forNumber(number), let hours = Self.simChangeHoursAgo(script) else {
            return nil
        }
        return clock.now().addingTimeInterval(-TimeInterval(hours) * 3600)
    }

    static func simChangeHoursAgo(_ script: OperatorScript) -> Int? {
        if case .completes(let hours) = script { return hours }
        return nil
    }

    /// Waits the configured per-hop latency on the injected clock (nothing when it is off).
    func hop() async {
        guard configuration.latencyMilliseconds > 0 else { return }
        let until = clock.now().addingTimeInterval(TimeInterval(configuration.latencyMilliseconds) / 1000)
        try? await clock.sleep(until: until)
    }
}
