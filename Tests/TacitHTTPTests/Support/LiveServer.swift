import TacitHTTP

/// Starts a server on an ephemeral loopback port for one test and always shuts it down.
func withLiveServer<T>(
    _ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    handler: @escaping HTTPHandler,
    _ body: (HTTPServer, HTTPClient) async throws -> T
) async throws -> T {
    var configuration = HTTPServer.Configuration(port: 0)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    let client = HTTPClient(port: server.port, host: configuration.host)
    do {
        let result = try await body(server, client)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
