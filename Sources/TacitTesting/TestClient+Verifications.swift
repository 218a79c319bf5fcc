import Foundation

/// The verification API's calls that many suites make, over the test client.
extension TestClient {
    /// Starts a verification and returns its id (empty if the start was refused) and the answer.
    public func start(_ number: String, channels: [String] = ["sms", "voice"], extra: [String: Any] = [:])
        async throws -> (id: String, reply: TestResponse) {
        var body: [String: Any] = ["phone_number": number, "workflow": channels.map { ["channel": $0] }]
        body.merge(extra) { $1 }
        let reply = try await post("/v1/verifications", json: body)
        return (reply.string("request_id") ?? "", reply)
    }

    /// The codes in a virtual handset's inbox, oldest first: a message's first run of 4 or more digits.
    public func inboxCodes(_ number: String) async throws -> [String] {
        let reply = try await get("/v1/dev/handsets/\(number.replacingOccurrences(of: "+", with: "%2B"))/inbox")
        let messages = reply.json["messages"] as? [[String: Any]] ?? []
        return messages.compactMap { $0["body"] as? String }.compactMap { body in
            body.split(whereSeparator: { !$0.isNumber }).first(where: { $0.count >= 4 }).map(String.init)
        }
    }

    /// The newest code in a virtual handset's inbox.
    public func latestCode(_ number: String) async throws -> String? {
        try await inboxCodes(number).last
    }
}

extension TestApplication {
    /// Waits until the send of `step` of `verificationId` ended and its answer was applied,
    /// so the provider's message id is on the timeline before a test posts a callback that
    /// names it (a callback acts only on the step that recorded its message).
    public func sendApplied(_ verificationId: String, step: Int = 0) async {
        guard let reports = application.sendReports else { return }
        for await report in reports where report.verificationId == verificationId && report.step == step { return }
    }
}

extension TestClient {
    /// Waits until the send of `step` of `verificationId` was applied (`TestApplication.sendApplied`).
    public func sendApplied(_ verificationId: String, step: Int = 0) async {
        await app.sendApplied(verificationId, step: step)
    }
}
