import Foundation
import Testing
@testable import TacitServer
import TacitHTTP
import TacitProvidersDev
import TacitStore
import TacitTesting

/// The application's own route table, read in process: what each route declares, and
/// that the gate answers from those declarations.
@Suite("Routes declare their security")
struct RouteSecurityDeclarationTests {
    /// The table `start()` would serve, built without listening.
    static func table(dev: Bool, configure: (inout ServerConfiguration) -> Void = { _ in }) -> RouteTable {
        var configuration = ServerConfiguration()
        configuration.dev = dev
        configure(&configuration)
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = ManualClock()
        dependencies.securityLog = SecurityLog { _ in }
        dependencies.faces = TestFaces.all
        DevProviders.wire(into: &dependencies, configuration: configuration)
        dependencies.callbacks = [CallbackTests.Signed()]
        let application = TacitApplication(configuration: configuration, store: InMemoryStore(), dependencies: dependencies)
        let secrets = ServerSecrets(master: Array(repeating: 7, count: 32))
        return application.makeRoutes(application.makeEngine(secrets: secrets), secrets: secrets)
    }

    /// A path that `pattern` routes, with made-up values for its parameters.
    static func path(for pattern: String) -> String {
        let values = ["id": "vf_unknown", "number": "+447911123456", "token": "not-a-token", "session": "s", "file": "app.js"]
        return pattern.split(separator: "/").map { part in
            part.hasPrefix(":") ? values[String(part.dropFirst()), default: "x"] : String(part)
        }.reduce("") { $0 + "/" + $1 }
    }

    static func send(_ router: Router, _ method: String, _ path: String, token: String? = nil) async -> HTTPResponse {
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return await router.handle(HTTPRequest(method: method, path: path, headers: headers, body: Array("{}".utf8),
                                               remoteAddress: "203.0.113.5"))
    }

    @Test("the open routes are exactly health, metrics, the console, the OpenAPI document, provider callbacks, the silent-auth hops and the operator")
    func openRoutes() {
        let open = Set(Self.table(dev: true).declarations.filter { $0.security.access == .open }.map { "\($0.method) \($0.pattern)" })
        let expected: Set<String> = [
            "GET /healthz", "GET /readyz", "GET /metrics", "GET /v1/openapi.json", "GET /", "GET /:file",
            "POST /v1/callbacks/signed", "GET /v1/silent/checks/:token", "GET /v1/silent/callback",
            "GET /v2/verify/openapi.json", "GET /v2/verify/:id/silent-auth/redirect",
            "POST /v1/silent/checks/:token", "GET /v2/twilio/openapi.json",
        ]
        #expect(open.subtracting(expected).allSatisfy { $0.contains(" /operator/") || $0.contains(" /camara/") }, "\(open.subtracting(expected))")
        #expect(expected.isSubset(of: open))
    }

    @Test("reads declare the read scope, templates, settings and fraud blocks their own, other /v1 calls the write scope")
    func scopes() {
        for declaration in Self.table(dev: true).declarations {
            guard case .key(let scope, _) = declaration.security.access else { continue }
            #expect(declaration.pattern.hasPrefix("/v1/"), "\(declaration.pattern)")
            let changesTemplates = declaration.pattern.hasPrefix("/v1/templates/") && declaration.method != "GET"
            let liftsBlocks = declaration.pattern.hasPrefix("/v1/fraud/") && declaration.method != "GET"
            let changesSettings = declaration.pattern == "/v1/settings" && declaration.method != "GET"
            let expected = declaration.method == "GET" && !declaration.security.isDevOnly ? Scope.read
                : changesTemplates ? Scope.templatesWrite : changesSettings ? Scope.settingsWrite
                : liftsBlocks ? Scope.fraudWrite : Scope.write
            #expect(scope == expected, "\(declaration.method) \(declaration.pattern)")
        }
    }

    @Test("only the code check and the device events let a client token stand in for a key, each with its own permission")
    func clientTokenPermissions() {
        var permissions: [String: String] = [:]
        for declaration in Self.table(dev: true).declarations {
            if case .key(_, let permission?) = declaration.security.access { permissions["\(declaration.method) \(declaration.pattern)"] = permission }
        }
        #expect(permissions == ["POST /v1/verifications/:id/check": Scope.silentAuthSubmit,
                                "POST /v1/verifications/:id/events": Scope.deviceEvents])
    }

    @Test("the start guard guards the start and the failed-check guard the code check, and no other route has a guard")
    func guards() {
        var guarded: [String: [RouteDeclaration.Guard]] = [:]
        for declaration in Self.table(dev: true).declarations where !declaration.guards.isEmpty {
            guarded["\(declaration.method) \(declaration.pattern)"] = declaration.guards
        }
        #expect(guarded == ["POST /v1/verifications": [.start], "POST /v1/verifications/:id/check": [.failedChecks],
                            "POST /v2/verify": [.start], "POST /v2/verify/:id": [.failedChecks],
                            "POST /v2/Services/:service/Verifications": [.start],
                            "POST /v2/Services/:service/VerificationCheck": [.failedChecks]])
    }

    @Test("with --dev the handset routes the dev providers mount are declared dev-only; without it none is mounted and nothing under /v1/dev/ exists, whatever the method or key")
    func devOnlyRoutes() async {
        let devOnly = Self.table(dev: true).declarations.filter(\.security.isDevOnly).map { "\($0.method) \($0.pattern)" }
        #expect(devOnly.sorted() == ["GET /v1/dev/handsets/:number/inbox", "GET /v1/dev/mailboxes/:address/inbox",
                                   "POST /v1/dev/handsets/:number/silent-check"])
        let plain = Self.table(dev: false)
        #expect(plain.declarations.filter { $0.pattern.hasPrefix(RouteSecurity.devNamespace) }.isEmpty)
        for path in ["/v1/dev/handsets/%2B99012345670/inbox", "/v1/dev/handsets/%2B99012345670/silent-check",
                     "/v1/dev/mailboxes/a@example.com/inbox", "/v1/dev/anything"] {
            for method in ["GET", "POST", "DELETE", "OPTIONS"] {
                for token in [nil, "tk_made_up"] {
                    let reply = await Self.send(plain.router, method, path, token: token)
                    #expect(reply.status == 404, "\(method) \(path)")
                    #expect(reply.header("WWW-Authenticate") == nil)
                }
            }
        }
    }

    @Test("without --dev, every route declaring a key refuses a keyless caller with 401 and the Bearer challenge, and a dev-only one answers 404 under any method")
    func keylessRefusedEverywhere() async {
        let table = Self.table(dev: false)
        let router = table.router
        for declaration in table.declarations where declaration.security.access != .open && declaration.security.access != .face("twilio") {
            let path = Self.path(for: declaration.pattern)
            if declaration.security.isDevOnly {
                for method in ["GET", "POST", "DELETE", "OPTIONS"] {
                    let reply = await Self.send(router, method, path)
                    #expect(reply.status == 404, "\(method) \(path)")
                    #expect(reply.header("WWW-Authenticate") == nil)
                }
                #expect(await Self.send(router, declaration.method, path, token: "tk_made_up").status == 404)
                continue
            }
            let reply = await Self.send(router, declaration.method, path)
            #expect(reply.status == 401, "\(declaration.method) \(path)")
            #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        }
    }

    @Test("without a credential, every Twilio-face route refuses with 401 20003 and the Basic challenge")
    func twilioRoutesNeedTheirCredential() async {
        let table = Self.table(dev: false)
        let router = table.router
        for declaration in table.declarations where declaration.security.access == .face("twilio") {
            let reply = await Self.send(router, declaration.method, Self.path(for: declaration.pattern))
            #expect(reply.status == 401, "\(declaration.method) \(declaration.pattern)")
            #expect(reply.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
        }
    }

    @Test("a request no route takes needs a key under /v1 before it learns 404 or 405, and gets the router's answer elsewhere")
    func unroutedRequests() async {
        let router = Self.table(dev: false).router
        #expect(await Self.send(router, "GET", "/v1/no-such-thing").status == 401)
        #expect(await Self.send(router, "PUT", "/v1/verifications/vf_unknown").status == 401)
        #expect(await Self.send(router, "GET", "/v1/callbacks/signed").status == 405, "the routes at that path are all open")
        #expect(await Self.send(router, "GET", "/no/such/thing").status == 404)
    }
}
