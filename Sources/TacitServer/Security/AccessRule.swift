import TacitHTTP

/// What a request needs before it reaches the router, decided from its method and
/// path alone, so routes added later are covered without being listed here.
enum AccessRule: Equatable {
    /// Health, metrics, the console, the OpenAPI document, and routes that carry their
    /// own proof: provider callbacks (signed) and the silent-auth hops (sealed tokens).
    case open
    /// A dev-only route while dev mode is off: it does not exist.
    case hidden
    /// An API route needing a key with `scope`; `id` is the verification it names, if any.
    /// `device` is the client-token permission that may stand in for a key.
    case api(scope: String, id: String?, device: String?)

    init(method: String, path: String, dev: Bool) {
        let parts = HTTPRequest.segments(of: path)
        guard parts.first == "v1", path != "/v1/openapi.json" else { self = .open; return }
        if parts.count > 1, Self.selfAuthenticating.contains(String(parts[1])) { self = .open; return }
        if parts.count > 1, parts[1] == "dev" {
            self = dev ? .api(scope: Scope.write, id: nil, device: nil) : .hidden
            return
        }
        let scope = method == "GET" || method == "HEAD" ? Scope.read : Scope.write
        guard parts.count >= 3, parts[1] == "verifications" else { self = .api(scope: scope, id: nil, device: nil); return }
        let tail = parts.count == 4 && method == "POST" ? String(parts[3]) : nil
        let device = tail == "events" ? Scope.deviceEvents : tail == "check" ? Scope.silentAuthSubmit : nil
        self = .api(scope: scope, id: String(parts[2]), device: device)
    }
}

extension AccessRule {
    /// `/v1/callbacks/…` verify the provider's signature; `/v1/silent/…` verify the
    /// sealed, single-use check token: an API key would be meaningless on either.
    static let selfAuthenticating: Set<String> = ["callbacks", "silent"]
}

extension HTTPRequest {
    /// The bearer credential, if the request carries one.
    var bearer: String? {
        guard let value = header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// Whether the caller is on this machine (127.0.0.0/8 or ::1, possibly IPv4-mapped).
    var isLoopback: Bool {
        let address = remoteAddress.hasPrefix("::ffff:") ? String(remoteAddress.dropFirst(7)) : remoteAddress
        return address.hasPrefix("127.") || address == "::1"
    }
}
