import Foundation
import TacitNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TacitCore
import TacitHTTP
import TacitTesting
@testable import TacitServer

/// `TacitApplication.run` as a service: ready and listening once, draining on cancellation.
@Suite("Application lifecycle", .timeLimit(.minutes(1)))
struct ApplicationLifecycleTests {
    static let readiness = HTTPRequest(method: "GET", path: "/readyz")

    static func application(port: Int = 0, sender: RecordingSender = RecordingSender()) -> TacitApplication {
        var configuration = ServerConfiguration()
        configuration.port = port
        configuration.dev = true
        // The store is in memory: so are its keys (no key file beside a database file).
        configuration.databasePath = ":memory:"
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = ManualClock()
        dependencies.sender = sender
        dependencies.securityLog = SecurityLog { _ in }
        return TacitApplication(configuration: configuration, store: InMemoryStore(), dependencies: dependencies)
    }

    static func start(_ number: String, port: Int) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/verifications")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"phone_number":"\#(number)","workflow":[{"channel":"sms"}]}"#.utf8)
        let (_, response) = try await URLSession.shared.cancellableData(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test("cancelling run turns /readyz to 503 at once, lets the request in flight finish, then returns")
    func cancellationDrains() async throws {
        let sender = RecordingSender(holding: true)
        let app = Self.application(sender: sender)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            let port = try await app.listening()
            #expect(port > 0 && port == app.port)
            #expect(await app.handle(Self.readiness).status == 200)
            async let held = Self.start("+447911123456", port: port)
            await sender.waitFor(1)
            group.cancelAll()
            #expect(await app.handle(Self.readiness).status == 503)
            sender.release()
            #expect(try await held == 202)
            try await group.waitForAll()
        }
        #expect(await app.handle(Self.readiness).status == 503, "a stopped application answers nothing but 503")
    }

    @Test("a port already taken fails run, and listening hands the same error to whoever waits")
    func failedStart() async throws {
        let first = Self.application()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await first.run() }
            let port = try await first.listening()
            let second = Self.application(port: port)
            await #expect(throws: HTTPServerError.self) { try await second.run() }
            await #expect(throws: HTTPServerError.self) { _ = try await second.listening() }
            group.cancelAll()
        }
    }

    @Test("in process, requests reach the same gated routes from the address the test sets, and nothing listens")
    func inProcess() async throws {
        var path = ""
        try await TestApplication.test(.inProcess) { app, client in
            path = app.databasePath
            #expect(app.application.port == 0)
            #expect(try await client.get("/readyz").status == 200)
            let (_, local) = try await client.start("+99012345670", channels: ["sms"])
            #expect(local.status == 202)
            let remote = try await client.from("203.0.113.5").post("/v1/verifications", json: ["phone_number": "+99012345671"])
            #expect(remote.status == 401, "keyless dev access is for loopback only")
            #expect(FileManager.default.fileExists(atPath: path))
        }
        #expect(!FileManager.default.fileExists(atPath: path), "the temporary database is removed afterwards")
    }

    @Test("a restart stops the first application and serves the same SQLite file from a new one")
    func restart() async throws {
        try await TestApplication.test(.live) { app, client in
            let (id, _) = try await client.start("+99012345672", channels: ["sms"])
            let first = app.application
            try await app.restart()
            #expect(app.application !== first)
            #expect(await first.handle(Self.readiness).status == 503)
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "pending")
        }
    }
}
