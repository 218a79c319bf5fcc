import Foundation
import TacitCore

/// CAMARA SIM Swap (sim-swap 2.1.0) as the engine's ``SimSwapChecker``: a CIBA token for
/// the number, then `POST {apiRoot}/sim-swap/v2/check` with `maxAge` in hours. Any failure
/// is "can't tell" (nil), which the workflow's policy treats as no signal.
public struct CamaraSimSwap: SimSwapChecker {
    let settings: CamaraSettings
    let discovery: CamaraDiscovery
    let flow: CamaraBackchannelFlow
    let cache: CamaraTokenCache
    let http: any OutboundHTTPClient

    static let scope = "\(CamaraSettings.purpose) sim-swap:check"
    static let path = "/sim-swap/v2/check"
    /// The API's range for `maxAge`.
    static let maxAgeRange = 1...2400

    static func body(phoneNumber: String, maxAgeHours: Int) -> [(String, JSONValue)] {
        [("phoneNumber", .string(phoneNumber)),
         ("maxAge", .number(Double(min(max(maxAgeHours, maxAgeRange.lowerBound), maxAgeRange.upperBound))))]
    }

    public func swapped(phoneNumber: String, maxAgeHours: Int) async -> Bool? {
        let key = CamaraTokenCache.key(scope: Self.scope, phoneNumber: phoneNumber)
        guard let token = await token(phoneNumber: phoneNumber, key: key),
              let url = URL(string: settings.apiURL + Self.path),
              let response = try? await http.send(CamaraWire.json(
                  Self.body(phoneNumber: phoneNumber, maxAgeHours: maxAgeHours),
                  to: url, token: token, correlator: UUID().uuidString.lowercased()))
        else { return nil }
        // A token the API no longer takes is not asked with again.
        if response.status == 401 || response.status == 403 { await cache.forget(key) }
        guard response.status == 200, case .bool(let swapped)? = CamaraWire.object(response)?["swapped"] else {
            return nil
        }
        return swapped
    }

    private func token(phoneNumber: String, key: String) async -> String? {
        if let token = await cache.token(for: key) { return token }
        guard let metadata = await discovery.metadata(),
              let fresh = await flow.token(phoneNumber: phoneNumber, scope: Self.scope, metadata: metadata) else {
            return nil
        }
        await cache.keep(fresh.token, expiresIn: fresh.expiresIn, for: key)
        return fresh.token
    }
}
