import Foundation
import TacitCore
import TacitHTTP

/// The check_url routes, and in dev the virtual phone's "run silent auth" button.
struct SilentRoutes: Sendable {
    let flow: SilentFlow
    let devHandsets: DevSilentCheck?

    func register(_ router: inout RouteTable) {
        let flow = self.flow
        router.add("GET", "/v1/silent/checks/:token", throwing: flow.open)
        router.add("GET", "/v1/silent/callback", throwing: flow.callback)
        if let devHandsets {
            router.add("POST", "/v1/dev/handsets/:number/silent-check", throwing: devHandsets.run)
        }
    }
}
