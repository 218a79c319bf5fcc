import TacitCore
import TacitStore

/// One page of `GET …/events` as JSON: at most `limit` events after a seq, oldest first,
/// and `next_after`, the seq to read after for the rest, or null when none remain. A long
/// timeline is never cut silently: a reader follows `next_after` until it is null.
struct EventPage {
    var events: [TimelineEvent]
    var nextAfter: Int?

    /// Reads one more event than it answers, to tell a full last page from a cut one.
    static func read(_ store: any VerificationStore, id: String, after: Int, limit: Int) async throws -> EventPage {
        let events = try await store.events(id: id, after: after, limit: limit + 1)
        guard events.count > limit else { return EventPage(events: events, nextAfter: nil) }
        let page = Array(events.prefix(limit))
        return EventPage(events: page, nextAfter: page.last?.seq)
    }

    /// `{"events":[…],"next_after":N|null}` from the events' own hand-written JSON.
    var json: [UInt8] {
        var bytes = Array(#"{"events":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += event.jsonBytes
        }
        return bytes + Array(#"],"next_after":\#(nextAfter.map(String.init) ?? "null")}"#.utf8)
    }
}
