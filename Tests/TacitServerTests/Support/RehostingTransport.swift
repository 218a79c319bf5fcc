import Foundation
import TacitKit

/// A device's cellular path through a load balancer, as the tests play it: each hop
/// goes to the instance `port(for:)` picks for its URL (the URL the device follows is
/// unchanged, so its cookies and checks see one host), or where it points when nil.
struct RehostingTransport: CellularTransport {
    let inner: any CellularTransport
    let port: @Sendable (URL) -> Int?

    var isAvailable: Bool { inner.isAvailable }

    func send(_ request: CellularRequest) async throws -> CellularResponse {
        var request = request
        if let port = port(request.url), var parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            parts.port = port
            request.url = parts.url ?? request.url
        }
        return try await inner.send(request)
    }
}
