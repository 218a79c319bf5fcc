import TacitHTTP

/// The operator's HTTP surface, for mounting on any router: the Tacit server's in
/// `--dev`, or the operator's own `OperatorServer`.
public struct OperatorRoutes: Sendable {
    public let network: VirtualOperator

    public init(network: VirtualOperator) {
        self.network = network
    }

    /// Adds every route through `add(method, pattern, handler)`.
    public func register(_ add: (String, String, @escaping HTTPHandler) -> Void) {
        let network = self.network
        add("GET", "/operator/gateway/:session") { await network.gateway($0) }
        add("GET", "/operator/.well-known/openid-configuration") { await network.discovery($0) }
        add("GET", "/operator/authorize") { await network.authorize($0) }
        add("POST", "/operator/token") { await network.token($0) }
        // v0 as the operator first offered it, v2 as number-verification 2.x names it (what
        // the CAMARA adapter calls under `{apiRoot}`): the same call.
        for version in ["v0", "v2"] {
            add("POST", "/camara/number-verification/\(version)/verify") { request in
                await network.camara(request) { call throws(CamaraError) in try network.verifyNumber(call) }
            }
        }
        add("GET", "/camara/number-verification/v0/device-phone-number") { request in
            await network.camara(request, readsBody: false) { call throws(CamaraError) in
                try network.devicePhoneNumber(call)
            }
        }
        add("POST", "/camara/sim-swap/v0/check") { request in
            await network.camara(request) { call throws(CamaraError) in try network.simSwapCheck(call) }
        }
        add("POST", "/camara/sim-swap/v0/retrieve-date") { request in
            await network.camara(request) { call throws(CamaraError) in try network.simSwapDate(call) }
        }
    }
}
