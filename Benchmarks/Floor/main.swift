// tacit-floor: the least work any server on Tacit's stack can do for the benchmarked
// requests, so Benchmarks/floor.py can say how far each throughput target sits from it.
//
// It answers the same routes as `tacit serve --dev` for the benchmarks' clients, on the
// same HTTP layer, and makes exactly the durable writes the contract asks of each request,
// through the same SQLite writer, into Tacit's own schema: the verification row (with its
// one-pending-per-number check), one group of timeline events the size Tacit writes, the
// send row a code leaves from, and the insights' rollup rows each change counts in.
// Everything else is left out: the security gate, per-route metrics, phone parsing,
// hashing and sealing, the state machine, rendering and redacting events, live pushes,
// kept states, timers and webhooks. No real logic can cost less than nothing, so a rate
// this server can't reach is out of reach for Tacit on the same machine.
//
// Usage (the arguments `tacit serve` takes in the benchmarks): tacit-floor serve --port 0 --db PATH
import Foundation
import TacitHTTP

let arguments = CommandLine.arguments
func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
guard let path = option("--db") else {
    FileHandle.standardError.write(Data("usage: tacit-floor serve --port N --db PATH\n".utf8))
    exit(2)
}
let store = try await FloorStore(path: path)
var configuration = HTTPServer.Configuration(port: Int(option("--port") ?? "0") ?? 0)
configuration.exemptPaths = ["/healthz", "/readyz", "/metrics"]
let router = FloorRoutes(store: store).router
let server = HTTPServer(configuration: configuration) { await router.handle($0) }
try server.start()
FileHandle.standardOutput.write(Data("tacit-floor listening on http://127.0.0.1:\(server.port)\n".utf8))
while true { try await Task.sleep(for: .seconds(3_600)) }
