import Foundation

/// Sends the carrier's code to the server, retrying only what may succeed on
/// a second try: network errors and 5xx. A 4xx is final.
struct CodeSubmitter: Sendable {
    let api: DeviceAPI
    let options: SilentAuth.Options

    func submit(_ code: String) async -> SilentAuthResult {
        var last = SilentAuthResult.failed(reason: .network)
        for attempt in 1...max(1, options.submitAttempts) {
            if attempt > 1 {
                do { try await Task.sleep(for: options.submitRetryDelay * (attempt - 1)) }
                catch { return .failed(reason: .cancelled) }
            }
            if Task.isCancelled { return .failed(reason: .cancelled) }
            do {
                let response = try await api.submit(code: code)
                if (200..<300).contains(response.status) {
                    await api.post(DeviceEvent(name: "code_submitted", outcome: "success",
                                               note: "The device submitted the code.",
                                               data: ["attempt": .number(Double(attempt))]))
                    return .submitted
                }
                last = Self.result(forStatus: response.status, body: response.body)
                if response.status < 500 { break }
            } catch {
                if Task.isCancelled || (error as? CellularTransportError)?.code == .cancelled {
                    return .failed(reason: .cancelled)
                }
                last = .failed(reason: .network)
            }
        }
        await api.post(DeviceEvent(name: "code_submitted", outcome: "failure",
                                   note: "The server did not take the code."))
        return last
    }

    static func result(forStatus status: Int, body: Data) -> SilentAuthResult {
        let type = (try? JSONDecoder().decode(TacitError.self, from: body))?.type
        switch status {
        case 500...: return .failed(reason: .server)
        case 401, 403: return .failed(reason: .unauthorized)
        case 404: return .failed(reason: .notFound)
        case 400 where type == "invalid-code": return .failed(reason: .notAccepted)
        case 409, 410, 429: return .failed(reason: .notAccepted)
        default: return .failed(reason: .invalidInput)
        }
    }
}
