import Foundation
import TacitOperator
import TacitProviderKit

/// The in-process virtual operator's routes (its gateway, authorize and CAMARA
/// endpoints) on the Tacit server's own port, where it learns its URL.
struct OperatorMount: ProviderMount {
    let network: VirtualOperator

    func routes(in context: ProviderContext) -> [ProviderRoute] {
        var routes: [ProviderRoute] = []
        OperatorRoutes(network: network).register { method, pattern, handler in
            routes.append(ProviderRoute(method, pattern, exposure: .open) { await handler($0) })
        }
        return routes
    }

    func listening(at baseURL: String) {
        network.baseURL = baseURL
    }
}
