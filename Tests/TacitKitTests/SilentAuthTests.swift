import Foundation
import Testing
@testable import TacitKit

@Suite("SilentAuth", .timeLimit(.minutes(1)))
struct SilentAuthTests {
    /// A carrier that only answers cellular sources, through a relative then an absolute redirect.
    static func carrier(_ request: TestHTTPServer.Request, base: @escaping @Sendable () -> URL) -> TestHTTPServer.Reply {
        guard request.peer != "127.0.0.1" else {
            return .respond(403, body: #"{"type":"device-not-cellular","title":"Not cellular","status":403}"#)
        }
        switch request.path {
        case "/check/abc": return .respond(302, headers: ["Location": "/gw/1?x=y"])
        case "/gw/1": return .respond(302, headers: ["Location": base().absoluteString + "/final"])
        case "/final": return FakeOperator.final()
        default: return .respond(404)
        }
    }

    @Test("follows relative and absolute redirects over the cellular source and submits the code")
    func happyPath() async throws {
        let box = URLBox()
        let fake = try FakeOperator { Self.carrier($0, base: box.get) }
        defer { fake.server.stop() }
        box.set(fake.server.baseURL)
        let result = await fake.run()
        #expect(result == .submitted)
        let carrierHops = fake.server.requests.filter { !$0.path.hasPrefix("/v1/") }
        #expect(carrierHops.map(\.path) == ["/check/abc", "/gw/1", "/final"])
        #expect(carrierHops.allSatisfy { $0.peer == "127.0.0.2" })
        let check = try #require(fake.server.requests(to: FakeOperator.checkPath).first)
        #expect(check.bodyText == #"{"code":"9876"}"#)
        #expect(check.headers["authorization"] == "Bearer tok-secret")
        #expect(fake.deviceEvents == ["device:check_url_opened", "device:redirect_followed", "device:redirect_followed",
                                      "device:code_received", "device:integrity_checked", "device:code_submitted"])
        #expect(!fake.server.requests(to: FakeOperator.eventsPath).contains { $0.bodyText.contains("9876") })
    }

    @Test("a check from a Wi-Fi source address ends as device_not_cellular")
    func wifiSource() async throws {
        let box = URLBox()
        let fake = try FakeOperator { Self.carrier($0, base: box.get) }
        defer { fake.server.stop() }
        let result = await fake.run(transport: SocketCellularTransport(sourceAddress: "127.0.0.1"))
        #expect(result.clientErrorName == "device_not_cellular")
        #expect(fake.server.requests(to: FakeOperator.checkPath).isEmpty)
    }

    @Test("no cellular path ends as device_not_cellular without touching the network")
    func noPath() async throws {
        let fake = try FakeOperator { _ in .respond(500) }
        defer { fake.server.stop() }
        let result = await fake.run(transport: NoCellularTransport())
        #expect(result.clientErrorName == "device_not_cellular")
        #expect(fake.server.requests.allSatisfy { $0.path == FakeOperator.eventsPath })
    }

    @Test("a redirect loop ends as redirect_error")
    func loop() async throws {
        let fake = try FakeOperator { request in
            .respond(302, headers: ["Location": request.path == "/check/abc" ? "/b" : "/check/abc"])
        }
        defer { fake.server.stop() }
        #expect(await fake.run().clientErrorName == "redirect_error")
        #expect(fake.server.requests(to: FakeOperator.checkPath).isEmpty)
    }

    @Test("ten redirects are followed; the eleventh is a redirect_error", arguments: [(10, true), (11, false)])
    func redirectLimit(hops: Int, succeeds: Bool) async throws {
        let fake = try FakeOperator { request in
            let n = Int(request.path.dropFirst(3)) ?? 0
            return n < hops ? .respond(302, headers: ["Location": "/r/\(n + 1)"]) : FakeOperator.final()
        }
        defer { fake.server.stop() }
        let result = await fake.run("/r/0")
        #expect(result == (succeeds ? .submitted : .clientError(name: "redirect_error", message: "the carrier's redirects did not end")))
    }

    @Test("a hop that never answers ends as timeout_error")
    func hopTimeout() async throws {
        let fake = try FakeOperator { request in request.path == "/check/abc" ? .respond(302, headers: ["Location": "/slow"]) : .hang }
        defer { fake.server.stop() }
        var options = SilentAuth.Options.fast
        options.hopTimeout = .milliseconds(200)
        #expect(await fake.run(options: options).clientErrorName == "timeout_error")
    }

    @Test("an answer for another request_id is an integrity_error and the code is never submitted")
    func integrity() async throws {
        let fake = try FakeOperator { _ in FakeOperator.final(requestId: "someone-else") }
        defer { fake.server.stop() }
        #expect(await fake.run().clientErrorName == "integrity_error")
        #expect(fake.server.requests(to: FakeOperator.checkPath).isEmpty)
        #expect(fake.deviceEvents.contains("device:integrity_checked"))
    }

    @Test("an expired check URL maps the problem slug to a client error")
    func expiredCheckURL() async throws {
        let fake = try FakeOperator { _ in .respond(410, body: #"{"type":"check-url-expired","title":"Gone","status":410}"#) }
        defer { fake.server.stop() }
        #expect(await fake.run().clientErrorName == "check_url_expired")
    }

    @Test("submission is retried after a 503 and a dropped connection")
    func retries() async throws {
        let fake = try FakeOperator(checkReplies: [.respond(503), .drop, .respond(200, body: "{}")]) { _ in FakeOperator.final() }
        defer { fake.server.stop() }
        #expect(await fake.run() == .submitted)
        #expect(fake.server.requests(to: FakeOperator.checkPath).count == 3)
    }

    @Test("submission gives up after three server errors")
    func retriesExhausted() async throws {
        let fake = try FakeOperator(checkReplies: [.respond(503)]) { _ in FakeOperator.final() }
        defer { fake.server.stop() }
        #expect(await fake.run() == .failed(reason: .server))
        #expect(fake.server.requests(to: FakeOperator.checkPath).count == 3)
    }

    @Test("a 4xx on submission is final", arguments: [
        (400, "invalid-code", SilentAuthResult.FailureReason.notAccepted), (401, "unauthorized", .unauthorized),
        (404, "not-found", .notFound), (409, "not-pending", .notAccepted), (422, "invalid-parameters", .invalidInput),
    ])
    func noRetryOn4xx(status: Int, type: String, reason: SilentAuthResult.FailureReason) async throws {
        let problem = #"{"type":"\#(type)","title":"No","status":\#(status)}"#
        let fake = try FakeOperator(checkReplies: [.respond(status, body: problem), .respond(200)]) { _ in FakeOperator.final() }
        defer { fake.server.stop() }
        #expect(await fake.run() == .failed(reason: reason))
        #expect(fake.server.requests(to: FakeOperator.checkPath).count == 1)
    }

    @Test("cancelling the task mid-flow ends as cancelled")
    func cancellation() async throws {
        let fake = try FakeOperator { _ in .hang }
        defer { fake.server.stop() }
        let run = Task { await fake.run() }
        for await request in fake.server.arrivals where request.path == "/check/abc" { break }
        run.cancel()
        #expect(await run.value == .failed(reason: .cancelled))
        #expect(fake.server.requests(to: FakeOperator.checkPath).isEmpty)
    }
}

/// Lets a handler learn the server's own URL after the server started.
final class URLBox: @unchecked Sendable {
    // Safe to share: `url` is only touched under `lock`.
    private let lock = NSLock()
    private var url = URL(string: "http://invalid")!
    func set(_ value: URL) { lock.withLock { url = value } }
    @Sendable func get() -> URL { lock.withLock { url } }
}

@Suite("SilentAuth bounds")
struct SilentAuthBoundsTests {
    @Test("a check past its validity is a timeout_error before any carrier hop")
    func expiredValidity() async throws {
        let fake = try FakeOperator { _ in FakeOperator.final() }
        defer { fake.server.stop() }
        let result = await SilentAuth.run(
            checkURL: fake.server.url("/check/abc"), requestId: FakeOperator.requestId, clientToken: "t",
            baseURL: fake.server.baseURL, transport: SocketCellularTransport(sourceAddress: "127.0.0.2"),
            apiTransport: SocketCellularTransport(), validUntil: Date(timeIntervalSinceNow: -1))
        #expect(result.clientErrorName == "timeout_error")
        #expect(fake.server.requests.allSatisfy { $0.path == FakeOperator.eventsPath })
    }

    @Test("a verification without a check URL has nothing to run")
    func noCheckURL() async {
        let verification = Fixtures.verification(active: 1)
        let result = await SilentAuth.run(verification, baseURL: URL(string: "http://127.0.0.1:1")!, transport: NoCellularTransport())
        #expect(result == .failed(reason: .invalidInput))
    }

    @Test("the URLSession transport returns redirects without following them")
    func urlSessionRedirects() async throws {
        let server = try TestHTTPServer { _ in .respond(302, headers: ["Location": "/elsewhere"]) }
        defer { server.stop() }
        let response = try await URLSessionTransport().send(CellularRequest(url: server.url("/start")))
        #expect(response.status == 302)
        #expect(response.header("Location") == "/elsewhere")
        #expect(server.requests.map(\.path) == ["/start"])
    }
}
