import Foundation
import Synchronization
import TacitCore
import TacitHTTP

/// A webhook receiver on loopback that answers with scripted statuses (the last one
/// repeats) and keeps every request it got.
final class WebhookSink: Sendable {
    private final class Script: Sendable {
        let statuses: Mutex<[Int]>
        let received = Mutex<[HTTPRequest]>([])
        init(_ statuses: [Int]) { self.statuses = Mutex(statuses) }
        func answer(_ request: HTTPRequest) -> Int {
            received.withLock { $0.append(request) }
            return statuses.withLock { list in list.count > 1 ? list.removeFirst() : list.first ?? 204 }
        }
    }
    private let script: Script
    private let server: HTTPServer

    init(statuses: [Int]) throws {
        let script = Script(statuses)
        self.script = script
        var configuration = HTTPServer.Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        server = HTTPServer(configuration: configuration) { request in .empty(status: script.answer(request)) }
        try server.start()
    }

    var url: String { "http://127.0.0.1:\(server.port)/hooks" }
    var requests: [HTTPRequest] { script.received.withLock { $0 } }
    func answer(_ next: [Int]) { script.statuses.withLock { $0 = next } }
    func stop() async { await server.shutdown() }
}
