import Foundation
import TacitCore
import TacitProvidersDev
import TacitServer
import TacitStore

/// `tacit serve`: runs the server until SIGINT or SIGTERM.
enum ServeCommand: Command {
    static let usage = """
        Usage: tacit serve [--dev] [--host HOST] [--port PORT] [--db PATH] [--database-url URL]
                           [--config FILE] [--secret SECRET] [--key-file PATH] [--public-url URL]
                           [--operator-latency MS] [--tls-cert FILE --tls-key FILE]

        Runs the Tacit verification server. Every flag has an environment variable:
        TACIT_HOST, TACIT_PORT, TACIT_DB, TACIT_DATABASE_URL, TACIT_CONFIG, TACIT_SECRET,
        TACIT_OLD_SECRETS, TACIT_KEY_FILE, TACIT_PUBLIC_URL, TACIT_OPERATOR_LATENCY, TACIT_TLS_CERT,
        TACIT_TLS_KEY, TACIT_DEV=1.
        Webhooks and provider callbacks are set by variable or config file only:
        TACIT_WEBHOOK_URL, TACIT_WEBHOOK_SECRETS (space-separated whsec_ secrets, newest first),
        TACIT_WEBHOOK_EVENTS (comma-separated types; default all), the same with _2 … _9 for
        more endpoints, TACIT_WEBHOOK_ALLOW_PRIVATE=1 (allow private/loopback targets),
        TACIT_VONAGE_SIGNATURE_SECRET, TACIT_TWILIO_AUTH_TOKEN.
        Code sends: TACIT_SEND_WAIT_MS (how long a start waits for its provider's answer before
        answering; default 10), TACIT_DEV_INBOX_LATENCY_MS (--dev: the handset inbox answers
        this many ms late, as a slow provider would; default 0).
        Drain: TACIT_DRAIN_MS (on SIGTERM, how long /readyz answers 503 while requests are
        still served, before the listener closes; default 0; see docs/deploy.md).
        """ + "\n" + ServerSettings.providerUsage + "\n" + """

          --dev                 virtual mobile operator, handset inbox, keyless loopback access
          --host HOST           address to listen on (default 127.0.0.1)
          --port PORT           port (default 8080; 0 picks a free one)
          --db PATH             SQLite file (default ./tacit.db)
          --database-url URL    postgres://USER@HOST:PORT/DB: PostgreSQL instead of SQLite,
                                for several instances on one database (see docs/postgres.md)
          --config FILE         a file of KEY=VALUE lines using the TACIT_* names
          --public-url URL      the URL devices reach this server at
          --operator-latency MS latency the virtual operator adds per hop (default 0)
        """ + "\n" + ServerSettings.tlsUsage + "\n" + ServerSettings.retentionUsage + "\n" + """

        Keys (never kept in the database; see `tacit keys rotate` and `tacit keys reseal`):
        """ + "\n" + ServerSettings.keyUsage + "\n" + """

        Security (also TACIT_MAX_IN_FLIGHT, TACIT_RATE_SENDS_PER_NUMBER, …):
        """ + "\n" + ServerSettings.securityUsage

    static let name = "serve"
    static var valued: Set<String> { ServerSettings.valued }
    static let flags: Set<String> = ["dev"]

    static func run(_ arguments: Arguments, _ context: CommandContext) async throws -> Int32 {
        if let extra = arguments.positional.first {
            throw Arguments.UsageError(message: "unexpected argument \(extra)")
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerSettings.configuration(arguments, environment: context.environment)
        } catch let error as ServerSettings.TLSSettingError {
            context.printError("tacit: \(error)")
            return 2
        }
        // Provider settings are checked before anything is opened or created.
        var dependencies = TacitApplication.Dependencies()
        dependencies.securityLog = SecurityLog { line in context.error.write("tacit: " + line + "\n") }
        dependencies.faces = DropInFaces.all
        let silent: SilentProviderRouter?
        do {
            dependencies.sender = try ServeProviders.sender(configuration, http: dependencies.httpClient,
                                                           receiptSources: &dependencies.receiptSources)
            let camara = try ServeProviders.camara(configuration, dependencies: &dependencies)
            dependencies.callbacks = try ServeProviders.callbacks(configuration)
            silent = try ServeProviders.silent(configuration, http: dependencies.httpClient, camara: camara)
        } catch {
            context.printError("tacit: \(error)")
            return 2
        }
        ServeProviders.warnings(configuration).forEach(context.printError)
        do {
            try await serve(configuration, dependencies: dependencies, silent: silent, context)
            return 0
        } catch let error as KeySetupError {
            // Exit 2 like a wrong setting: the keys given don't fit the database (or the file's mode).
            context.printError("tacit: \(error)")
            return 2
        } catch {
            context.printError("tacit: could not start: \(error)")
            return 1
        }
    }

    /// Opens the store, runs the application until the interruption, then drains it.
    private static func serve(_ configuration: ServerConfiguration, dependencies: TacitApplication.Dependencies,
                              silent: SilentProviderRouter?, _ context: CommandContext) async throws {
        var dependencies = dependencies
        let (store, held) = try await StoreFactory.openForServing(configuration, now: dependencies.clock.now())
        defer { withExtendedLifetime(held) {} }
        let clients = ServeProviders.camaraAtDevOperator(configuration, dependencies: &dependencies)
        DevProviders.wire(into: &dependencies, configuration: configuration, state: store.sharedDevState,
                          clients: clients)
        ServeProviders.wire(silent, into: &dependencies)
        let application = TacitApplication(configuration: configuration, store: store, dependencies: dependencies)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.run() }
            try await announce(application, dev: configuration.dev, context)
            await context.interruption()
            context.print("Shutting down…")
            // /readyz turns 503 while requests are still served, so a load balancer stops
            // sending any before the listener closes.
            application.beginDrain()
            if configuration.drainDelay > 0 { try? await Task.sleep(for: .seconds(configuration.drainDelay)) }
            // Cancelling the application drains it: /readyz turns 503, requests in flight finish.
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// Waits until the application listens, then says where.
    private static func announce(_ application: TacitApplication, dev: Bool, _ context: CommandContext) async throws {
        _ = try await application.listening()
        context.print("Tacit is listening on \(application.baseURL)")
        context.print("Console: \(application.baseURL)/")
        if dev {
            context.print("Dev mode: virtual operator on for \(VirtualRange.prefix) numbers;"
                          + " handset inbox at /v1/dev/handsets/{number}/inbox")
        }
    }
}
