import Foundation
import Testing
import TacitKit

/// The device side against a real server: what leaves from which address, what is
/// never submitted, what is retried, and where a run stops.
@Suite("TacitKit live: the device flow", .timeLimit(.minutes(1)))
struct LiveSilentAuthTests {
    /// Starts a silent-first verification for an even (completing) number.
    static func start(_ server: KitCalls, _ number: String = "+99012345670") async throws -> Verification {
        let started = try await server.client.start(StartVerificationRequest(phoneNumber: number, workflow: [.silentAuth, .sms]))
        try #require(started.checkURL != nil && started.clientToken != nil)
        return started
    }

    static func run(_ server: KitCalls, _ v: Verification, checkURL: URL? = nil, token: String? = nil,
                    transport: any CellularTransport = KitCalls.cellular,
                    api: any CellularTransport = KitCalls.api) async -> SilentAuthResult {
        var options = SilentAuth.Options()
        options.submitRetryDelay = .zero
        return await SilentAuth.run(checkURL: checkURL ?? v.checkURL!, requestId: v.requestId, clientToken: token ?? v.clientToken!,
                                    baseURL: server.base, transport: transport, apiTransport: api, options: options)
    }

    @Test("the socket transport leaves from its bound address as the operator sees it: Wi-Fi fails, cellular verifies")
    func boundAddress() async throws {
        try await KitCalls.test { server in
            let overWifi = try await Self.start(server, "+99012345670")
            #expect(await Self.run(server, overWifi, transport: KitCalls.wifi).clientErrorName == "device_not_cellular")
            #expect(try await server.client.state(overWifi.requestId).workflow.first?.status == .failed)

            let overCellular = try await Self.start(server, "+99012345672")
            #expect(await Self.run(server, overCellular) == .submitted)
            #expect(try await server.client.state(overCellular.requestId).status == .completed)
            #expect(try await server.labels(overCellular.requestId).contains("silent_auth:cellular_path"))
        }
    }

    @Test("an answer carrying another request_id is an integrity_error and its code is never submitted")
    func integrity() async throws {
        try await KitCalls.test { server in
            let started = try await Self.start(server)
            let carrier = try TestHTTPServer { _ in FakeOperator.final(requestId: "vf_someone_else", code: "123456") }
            defer { carrier.stop() }
            let result = await Self.run(server, started, checkURL: carrier.url("/check"))
            #expect(result.clientErrorName == "integrity_error")
            let labels = try await server.labels(started.requestId)
            #expect(labels.contains("device:integrity_checked") && !labels.contains("api:check"))
            #expect(try await server.client.state(started.requestId).activeChannel == .silentAuth)
        }
    }

    @Test("redirects are followed up to ten in all, the real server's included; the eleventh is a redirect_error",
          arguments: [(8, true), (9, false)])
    func redirectLimit(extraHops: Int, completes: Bool) async throws {
        try await KitCalls.test { server in
            let started = try await Self.start(server)
            let realCheck = started.checkURL!.absoluteString
            // The carrier's own hops first, then the real check_url, which redirects twice more.
            let carrier = try TestHTTPServer { request in
                let hop = Int(request.path.dropFirst("/hop/".count)) ?? 0
                let next = hop + 1 < extraHops ? "/hop/\(hop + 1)" : realCheck
                return .respond(302, headers: ["Location": next])
            }
            defer { carrier.stop() }
            let result = await Self.run(server, started, checkURL: carrier.url("/hop/0"))
            #expect((result == .submitted) == completes)
            if !completes { #expect(result.clientErrorName == "redirect_error") }
            #expect(try await server.client.state(started.requestId).status == (completes ? .completed : .pending))
        }
    }

    @Test("a code submission is retried after network errors and reaches the server")
    func retriesNetworkErrors() async throws {
        try await KitCalls.test { server in
            let started = try await Self.start(server)
            let flaky = FlakyCheckTransport(failures: 2)
            #expect(await Self.run(server, started, api: flaky) == .submitted)
            #expect(flaky.checks.count == 3)
            #expect(try await server.client.state(started.requestId).status == .completed)
        }
    }

    @Test("a 4xx on submission is final: a wrong client token is tried once")
    func noRetryOn4xx() async throws {
        try await KitCalls.test { server in
            let started = try await Self.start(server)
            let counting = FlakyCheckTransport(failures: 0)
            let result = await Self.run(server, started, token: "ct_not_the_token", api: counting)
            #expect(result == .failed(reason: .unauthorized))
            #expect(counting.checks.count == 1)
            #expect(try await server.client.state(started.requestId).status == .pending)
        }
    }

    @Test("cancelling the task between carrier hops stops the run before anything is submitted")
    func cancellation() async throws {
        try await KitCalls.test { server in
            let started = try await Self.start(server)
            let cancelling = HookTransport(inner: KitCalls.cellular) { _, count in
                if count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            let result = await Task { await Self.run(server, started, transport: cancelling) }.value
            #expect(result == .failed(reason: .cancelled))
            #expect(!(try await server.labels(started.requestId)).contains("api:check"))
            #expect(try await server.client.state(started.requestId).status == .pending)
        }
    }
}

/// The API path, failing the first `failures` code submissions with a dropped connection.
struct FlakyCheckTransport: CellularTransport {
    let failures: Int
    let checks = Counter()
    var isAvailable: Bool { true }

    func send(_ request: CellularRequest) async throws -> CellularResponse {
        if request.url.path.hasSuffix("/check") {
            checks.add()
            if checks.count <= failures { throw CellularTransportError(.connectionFailed, "dropped") }
        }
        return try await KitCalls.api.send(request)
    }
}
