import Foundation
import TacitPhone
import TacitStore

extension TacitApplication {
    /// `gate` able to check the Vonage face's credentials, when the store keeps applications
    /// (without them there is no credential to check, and every face call is refused).
    func withVonageFace(_ gate: SecurityGate) -> SecurityGate {
        var gate = gate
        if let applications = store as? any ApplicationStore {
            gate.vonage = VonageAuthenticator(directory: ApplicationDirectory(store: applications), clock: dependencies.clock)
        }
        return gate
    }

    /// Adds the Vonage Verify v2 face's routes, its check_url hop through the one silent flow, and its OpenAPI document.
    func mountVonageFace(on router: inout RouteTable, runner: WorkflowRunner, secrets: ServerSecrets, keys: SilentKeys,
                         verdicts: any SilentVerdictReader) {
        let redirect = VonageSilentRedirect(flow: SilentFlow(runner: runner, keys: keys, verdicts: verdicts), keys: keys)
        VonageFaceRoutes(runner: runner, store: store, secrets: secrets, ids: .vonageRequestID(), phones: PhoneNumberParser(),
                         allowVirtualRange: configuration.dev, silent: redirect, document: Self.vonageDocument).register(&router)
    }

    /// The face's OpenAPI 3 document, `Sources/TacitServer/vonage-openapi.json`, served at `/v2/verify/openapi.json`.
    static let vonageDocument: [UInt8]? = Bundle.module.url(forResource: "vonage-openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }.map { Array($0) }
}
