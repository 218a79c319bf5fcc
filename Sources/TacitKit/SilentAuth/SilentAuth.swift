import Foundation

/// The device side of silent authentication (docs/api.md#silent-authentication): fetch `check_url` over the
/// cellular path, follow the carrier's redirects, check the `request_id`, and
/// submit the code with the verification's client token.
public enum SilentAuth {
    /// Limits for one run.
    public struct Options: Sendable {
        /// Redirects allowed before `redirect_error`.
        public var maxRedirects = 10
        /// Each carrier hop must answer within this.
        public var hopTimeout: Duration = .seconds(5)
        /// The whole carrier step's bound when the caller gives no `validUntil`.
        public var maxDuration: Duration = .seconds(60)
        /// Attempts to submit the code; only network errors and 5xx are retried.
        public var submitAttempts = 3
        /// The pause between submission attempts, growing per attempt.
        public var submitRetryDelay: Duration = .milliseconds(250)
        /// Each submission or device-event call must answer within this.
        public var apiTimeout: Duration = .seconds(10)

        public init() {}
    }

    /// Runs the device flow once.
    ///
    /// - Parameters:
    ///   - checkURL: the verification's `check_url`, fetched over `transport`.
    ///   - requestId: the verification's id; the carrier's answer must carry the same.
    ///   - clientToken: authorises the code submission and device events.
    ///   - baseURL: the Tacit server, e.g. `http://127.0.0.1:8080`.
    ///   - transport: the cellular path. When it reports no path, the run ends at once
    ///     with `device_not_cellular` (the app may then ask for the next channel).
    ///   - apiTransport: the path to the Tacit server (any network).
    ///   - validUntil: when the check stops being valid; bounds the carrier step.
    ///   - answerId: the id the carrier's final answer must carry, when it is not
    ///     `requestId`: the start response's `provider_request_id`, for a check URL that
    ///     ends at the provider (Vonage's `request_id`, tru.ID's `check_id`).
    /// - Returns: the outcome; task cancellation yields `.failed(reason: .cancelled)`.
    public static func run(
        checkURL: URL, requestId: String, clientToken: String, baseURL: URL,
        transport: any CellularTransport, apiTransport: any CellularTransport = URLSessionTransport(),
        validUntil: Date? = nil, answerId: String? = nil, options: Options = Options()
    ) async -> SilentAuthResult {
        guard !requestId.isEmpty, !clientToken.isEmpty else { return .failed(reason: .invalidInput) }
        let api = DeviceAPI(baseURL: baseURL, requestId: requestId, clientToken: clientToken,
                            transport: apiTransport, timeout: options.apiTimeout)
        guard transport.isAvailable else {
            await api.post(DeviceEvent(name: "error", outcome: "failure", note: "No cellular data path.",
                                       data: ["error": .string("device_not_cellular")]))
            return .clientError(name: "device_not_cellular", message: "the device has no cellular data path")
        }
        var limit = ContinuousClock.now.advanced(by: options.maxDuration)
        if let validUntil {
            limit = min(limit,
                        ContinuousClock.now.advanced(by: .milliseconds(Int64(validUntil.timeIntervalSinceNow * 1000))))
        }
        let follower = CheckURLFollower(transport: transport, api: api, options: options, deadline: limit)
        switch await follower.fetchCode(from: checkURL, expecting: answerId ?? requestId) {
        case .stopped(let result):
            if case .clientError(let name, _) = result {
                await api.post(DeviceEvent(name: "error", outcome: "failure",
                                           note: "Silent check stopped on the device.",
                                           data: ["error": .string(name)]))
            }
            return result
        case .code(let code):
            return await CodeSubmitter(api: api, options: options).submit(code)
        }
    }

    /// Runs the device flow for a verification whose silent step is active,
    /// bounded by its `expires_at`. Without a `check_url` or client token there
    /// is nothing to run: `failed(.invalidInput)`.
    public static func run(
        _ verification: Verification, baseURL: URL, transport: any CellularTransport,
        apiTransport: any CellularTransport = URLSessionTransport(), options: Options = Options()
    ) async -> SilentAuthResult {
        guard let checkURL = verification.checkURL, let token = verification.clientToken else {
            return .failed(reason: .invalidInput)
        }
        return await run(checkURL: checkURL, requestId: verification.requestId, clientToken: token, baseURL: baseURL,
                         transport: transport, apiTransport: apiTransport, validUntil: verification.expiresAt,
                         answerId: verification.providerRequestId, options: options)
    }
}
