import Foundation
import Testing
import TacitKit

/// The silent path's hops on the timeline, each naming its provider, none holding a
/// code, a token or the number.
@Suite("The silent path's hops on the timeline")
struct SilentHopTimelineTests {
    @Test("coverage, challenge issued, device opened, provider verdict and integrity check each name the provider, and hold no secret")
    func hops() async throws {
        try await SilentCalls.test { harness in
            let number = "+99012345670"
            let started = try await harness.start(number).body
            let id = started["request_id"] as! String
            #expect(await harness.runDevice(started, over: SilentCalls.cellular) == .submitted)
            let reply = try await harness.client.send("GET", "/v1/verifications/\(id)/events?after=0")
            let events = reply.json["events"] as? [[String: Any]] ?? []
            let labels = events.compactMap { $0["label"] as? String }
            let hops = ["silent_auth:coverage_checked", "silent_auth:check_url_issued", "silent_auth:check_url_opened",
                        "silent_auth:provider_verdict", "silent_auth:integrity_checked"]
            #expect(hops.compactMap { labels.firstIndex(of: $0) } == (hops.compactMap { labels.firstIndex(of: $0) }).sorted())
            for hop in hops {
                let event = events.first { $0["label"] as? String == hop }
                #expect((event?["data"] as? [String: Any])?["provider"] as? String == "virtual_operator", "\(hop)")
            }
            #expect(labels.contains("device:integrity_checked"))
            #expect((events.first { $0["label"] as? String == "silent_auth:provider_verdict" }?["data"] as? [String: Any])?["result"] as? String == "match")
            let text = String(decoding: reply.body, as: UTF8.self)
            for secret in [started["client_token"] as! String, String((started["check_url"] as! String).split(separator: "/").last!),
                           String(number.dropFirst()), "sa_"] {
                #expect(!text.contains(secret))
            }
        }
    }
}
