import Foundation
import Testing
import TacitTesting

/// The dev console's silent-check button fetches a check URL and reports what came
/// back; it must fetch nothing but a check URL this server issued for the request named.
@Suite("The dev silent-check fetches only this server's check URLs", .timeLimit(.minutes(1)))
struct SilentCheckProbeTests {
    static let number = "+99012345670"

    static func silentStart(_ client: TestClient, _ number: String) async throws -> (id: String, token: String, checkURL: String) {
        let (id, reply) = try await client.start(number, channels: ["silent_auth", "sms"])
        return (id, try #require(reply.string("client_token")), try #require(reply.string("check_url")))
    }

    @Test("a loopback URL, this server's other routes, a forged check token and another request's check URL are 422 with no fetch")
    func refusesWhatItDidNotIssue() async throws {
        let sink = try WebhookSink(statuses: [200])
        try await TestApplication.test(.inProcess) { app, client in
            let (id, token, checkURL) = try await Self.silentStart(client, Self.number)
            let other = try await Self.silentStart(client, "+99012345672")
            let checks = app.baseURL + "/v1/silent/checks/"
            let forged = checks + "cu_" + String(repeating: "A", count: 80)
            let probes = [sink.url, app.baseURL + "/healthz", forged, checkURL + "x", other.checkURL, "http://127.0.0.1:22/"]
            for probe in probes {
                let body: [String: Any] = ["request_id": id, "check_url": probe, "client_token": token, "path": "cellular"]
                let reply = try await client.post("/v1/dev/handsets/\(Self.number)/silent-check", json: body)
                #expect(reply.status == 422, "\(probe) answered \(reply.status)")
                #expect(reply.text.contains("check_url"))
            }
            #expect(sink.requests.isEmpty)
            #expect(try await client.get("/v1/verifications/\(id)").json["status"] as? String == "pending")
        }
        await sink.stop()
    }
}
