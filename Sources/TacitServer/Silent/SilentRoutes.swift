import Foundation
import TacitCore
import TacitHTTP

/// The check_url routes: the device's two hops through Tacit.
struct SilentRoutes: Sendable {
    let flow: SilentFlow

    /// The check_url hops are open: the sealed, single-use check token is their proof, and
    /// a device following a redirect has no key to send.
    func register(_ router: inout RouteTable) {
        let flow = self.flow
        router.add("GET", "/v1/silent/checks/:token", .open, throwing: flow.open)
        // Some providers' device SDKs POST the URL; the hop is the same.
        router.add("POST", "/v1/silent/checks/:token", .open, throwing: flow.open)
        router.add("GET", "/v1/silent/callback", .open, throwing: flow.callback)
    }
}
