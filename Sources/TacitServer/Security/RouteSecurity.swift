/// What a route needs before its handler runs, declared where the route is registered
/// (`RouteTable.add`): the table takes no route without one, and the gate runs from it.
public struct RouteSecurity: Sendable, Equatable {
    public enum Access: Sendable, Equatable {
        /// No credential: health, metrics, the console and the OpenAPI document, and routes
        /// that carry their own proof (provider callbacks are signed, the silent-auth hops
        /// hold sealed single-use tokens, the operator checks its own access tokens).
        case open
        /// An API key holding `scope`. `clientToken` names the client-token permission that
        /// may stand in for a key, for the verification the path's `:id` names.
        case key(scope: String, clientToken: String?)
        /// The named drop-in face's own credential (`ServedFace.authenticate`), every
        /// refusal answered in the face's own error shape.
        case face(String)
    }

    var access: Access
    /// Whether the route exists only in `--dev`; without it the route answers as a path
    /// that doesn't exist, whatever the credential.
    var isDevOnly = false

    public static let open = RouteSecurity(access: .open)
    /// Where the dev tools live: without `--dev` nothing under it exists, whatever the credential.
    static let devNamespace = "/v1/dev/"
    /// Reads of verifications and their timelines.
    static let read = RouteSecurity(access: .key(scope: Scope.read, clientToken: nil))
    /// Changes to verifications.
    static let write = RouteSecurity(access: .key(scope: Scope.write, clientToken: nil))
    /// Changes to the application's message templates.
    static let templatesWrite = RouteSecurity(access: .key(scope: Scope.templatesWrite, clientToken: nil))
    /// Lifting the application's automatic prefix blocks.
    static let fraudWrite = RouteSecurity(access: .key(scope: Scope.fraudWrite, clientToken: nil))
    /// Changes to the application's settings.
    static let settingsWrite = RouteSecurity(access: .key(scope: Scope.settingsWrite, clientToken: nil))
    /// A call to the drop-in face `name`.
    public static func face(_ name: String) -> RouteSecurity { RouteSecurity(access: .face(name)) }

    /// A write that a device may also make with its verification's client token, holding `permission`.
    static func write(orClientToken permission: String) -> RouteSecurity {
        RouteSecurity(access: .key(scope: Scope.write, clientToken: permission))
    }

    /// `security`, for a route that exists only in `--dev`.
    static func devOnly(_ security: RouteSecurity) -> RouteSecurity {
        var security = security
        security.isDevOnly = true
        return security
    }

    /// What a request that no route takes needs: a key with the method's scope, as any
    /// `/v1` call does (docs/api.md#access), so a keyless caller can't map the API by its 404s and 405s.
    static func unrouted(method: String) -> RouteSecurity {
        method == "GET" || method == "HEAD" ? .read : .write
    }
}

/// One registered route and how it is secured, as the route table recorded it.
struct RouteDeclaration: Sendable, Equatable {
    /// What runs around a handler beyond the credential check, each fed the handler's typed
    /// input or result by the registration that declares it.
    enum Guard: String, Sendable, Equatable {
        /// Start limits, destination lists, the send quota and velocity (`StartGuard`),
        /// on the start request the route itself then uses.
        case start
        /// The number's run of wrong codes (`FailedCheckGuard`) and the send-to-verify
        /// conversion (`ConversionMonitor`), on the `CheckResult` the route reports.
        case failedChecks
    }

    var method: String
    var pattern: String
    var security: RouteSecurity
    var guards: [Guard]
}

extension ProviderRoute.Exposure {
    /// How the gate guards a provider's route: its own proof, or a dev tool behind a write key.
    var security: RouteSecurity {
        switch self {
        case .open: .open
        case .devTool: .devOnly(.write)
        }
    }
}
