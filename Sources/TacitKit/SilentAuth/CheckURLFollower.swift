import Foundation

/// Follows `check_url` hop by hop over the cellular transport and returns the
/// carrier's code once its `request_id` matches ours.
struct CheckURLFollower: Sendable {
    enum Outcome: Sendable {
        case code(String)
        case stopped(SilentAuthResult)
    }

    /// `{"request_id", "code"}` (Tacit, Vonage) or `{"check_id", "code"}` (tru.ID).
    private struct FinalBody: Decodable {
        let requestId: String
        let code: String
        enum CodingKeys: String, CodingKey { case requestId = "request_id", checkId = "check_id", code }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            requestId = try c.decodeIfPresent(String.self, forKey: .requestId)
                ?? c.decode(String.self, forKey: .checkId)
            code = try c.decode(String.self, forKey: .code)
        }
    }

    let transport: any CellularTransport
    let api: DeviceAPI
    let options: SilentAuth.Options
    let deadline: ContinuousClock.Instant

    func fetchCode(from checkURL: URL, expecting requestId: String) async -> Outcome {
        await api.post(DeviceEvent(name: "check_url_opened",
                                   note: "The device opened the check URL over the cellular path."))
        var url = checkURL
        var visited: Set<String> = [checkURL.absoluteString]
        var cookies = CarrierCookies()
        for hop in 0...options.maxRedirects {
            let response: CellularResponse
            switch await fetch(url, cookie: cookies.header(for: url)) {
            case .stopped(let result): return .stopped(result)
            case .fetched(let answer): response = answer
            }
            cookies.store(from: response, for: url)
            guard (300..<400).contains(response.status) else { return await finish(response, expecting: requestId) }
            guard hop < options.maxRedirects,
                  let location = response.header("Location"),
                  let next = URL(string: location, relativeTo: url)?.absoluteURL,
                  visited.insert(next.absoluteString).inserted else {
                return .stopped(.clientError(name: "redirect_error", message: "the carrier's redirects did not end"))
            }
            await api.post(DeviceEvent(name: "redirect_followed", note: "The device followed a carrier redirect.",
                                       data: ["hop": .number(Double(hop + 1)),
                                              "status": .number(Double(response.status))]))
            url = next
        }
        return .stopped(.clientError(name: "redirect_error", message: "too many redirects"))
    }

    private enum Fetch { case fetched(CellularResponse), stopped(SilentAuthResult) }

    /// One hop, carrying the chain's cookies: Tacit's callback accepts the operator's
    /// answer only with the cookie it set on the device that opened the check URL.
    private func fetch(_ url: URL, cookie: String?) async -> Fetch {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return .stopped(Self.timeout) }
        let headers = cookie.map { ["Cookie": $0] } ?? [:]
        do {
            return .fetched(try await transport.send(CellularRequest(url: url, headers: headers,
                                                                     timeout: min(options.hopTimeout, remaining))))
        } catch {
            if Task.isCancelled || (error as? CellularTransportError)?.code == .cancelled {
                return .stopped(.failed(reason: .cancelled))
            }
            switch (error as? CellularTransportError)?.code {
            case .timeout: return .stopped(Self.timeout)
            case .untrustedCertificate:
                return .stopped(.clientError(name: "certificate_error",
                                             message: "the carrier's certificate was not trusted"))
            case .tlsFailed:
                return .stopped(.clientError(name: "tls_error", message: "no secure connection to the carrier"))
            default: break
            }
            return .stopped(.clientError(name: "connection_error", message: "the carrier could not be reached"))
        }
    }

    private static let timeout = SilentAuthResult.clientError(name: "timeout_error",
                                                              message: "the carrier did not answer in time")

    private func finish(_ response: CellularResponse, expecting requestId: String) async -> Outcome {
        guard (200..<300).contains(response.status) else { return .stopped(Self.problem(response)) }
        guard let body = try? JSONDecoder().decode(FinalBody.self, from: response.body) else {
            return .stopped(.clientError(name: "invalid_response", message: "the carrier's answer was not understood"))
        }
        await api.post(DeviceEvent(name: "code_received", note: "The carrier's answer reached the device."))
        guard body.requestId == requestId else {
            await api.post(DeviceEvent(name: "integrity_checked", outcome: "failure",
                                       note: "The answer belonged to another request; the code was discarded."))
            return .stopped(.clientError(name: "integrity_error", message: "the answer was for another request"))
        }
        await api.post(DeviceEvent(name: "integrity_checked", outcome: "success",
                                   note: "The answer matched this request."))
        return .code(body.code)
    }

    /// Maps a carrier or operator problem answer to a stable client error name.
    static func problem(_ response: CellularResponse) -> SilentAuthResult {
        let type = (try? JSONDecoder().decode(TacitError.self, from: response.body))?.type
        if response.status == 403 && type == "device-not-cellular" {
            return .clientError(name: "device_not_cellular", message: "the check was not made over a cellular path")
        }
        let name = type.map { $0.replacingOccurrences(of: "-", with: "_") } ?? "carrier_error"
        return .clientError(name: name, message: "the carrier refused the check (HTTP \(response.status))")
    }
}
