import Foundation
import TacitCore
import TacitHTTP

/// The check_url routes: the device's two hops through Tacit.
struct SilentRoutes: Sendable {
    let flow: SilentFlow

    func register(_ router: inout RouteTable) {
        let flow = self.flow
        router.add("GET", "/v1/silent/checks/:token", throwing: flow.open)
        router.add("GET", "/v1/silent/callback", throwing: flow.callback)
    }
}
