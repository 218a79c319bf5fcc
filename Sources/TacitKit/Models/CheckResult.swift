import Foundation

/// A successful code check: `200 {"request_id","status":"completed"}`.
public struct CheckResult: Codable, Sendable, Equatable {
    public var requestId: String
    public var status: VerificationStatus
    public init(requestId: String, status: VerificationStatus) {
        self.requestId = requestId
        self.status = status
    }
    enum CodingKeys: String, CodingKey { case requestId = "request_id", status }
}

/// A message in the dev virtual handset's inbox.
public struct HandsetMessage: Codable, Sendable, Equatable {
    public var channel: Channel
    /// The message as the phone shows it (it carries the code: dev only).
    public var body: String
    public var at: Date?

    /// The first run of 4 to 10 digits in the body: the code, for `--auto-code`.
    public var code: String? {
        var run = ""
        for ch in body {
            if ch.isASCII && ch.isNumber { run.append(ch); continue }
            if (4...10).contains(run.count) { return run }
            run = ""
        }
        return (4...10).contains(run.count) ? run : nil
    }
}

struct HandsetInbox: Codable { var messages: [HandsetMessage] }
/// One page of events; `nextAfter` is where the next page starts, nil on the last.
struct EventList: Codable {
    var events: [TimelineEvent]
    var nextAfter: Int?
    enum CodingKeys: String, CodingKey { case events, nextAfter = "next_after" }
}
struct CodeBody: Codable { var code: String }
