import TacitCore
import TacitStore

/// The events a timeline export holds: every event the server wrote (steps, codes, the
/// cancel, the summary), and device events in seq order while room is left under the
/// export's size. However many events a device posted, the export keeps the end of the
/// story and says how many device events it left out.
struct ExportEvents {
    var events: [TimelineEvent]
    /// Device events not in `events`; 0 when the export is whole.
    var leftOut: Int

    /// Events read per store call while the export is gathered.
    static let readPage = 1_000

    /// Reads the timeline page by page, holding at most `limit` device events at a time.
    static func read(_ store: any VerificationStore, id: String, limit: Int) async throws -> ExportEvents {
        var server: [TimelineEvent] = []
        var device: [TimelineEvent] = []
        var deviceTotal = 0
        var cursor = 0
        while true {
            let page = try await store.events(id: id, after: cursor, limit: readPage)
            for event in page {
                if event.source != .device {
                    server.append(event)
                } else {
                    deviceTotal += 1
                    if device.count < limit { device.append(event) }
                }
            }
            guard page.count == readPage, let last = page.last else { break }
            cursor = last.seq
        }
        return ExportEvents(server: server, device: device, deviceTotal: deviceTotal, limit: limit)
    }

    /// The server's events, then as many of the earliest device events as fit, in seq order.
    init(server: [TimelineEvent], device: [TimelineEvent], deviceTotal: Int, limit: Int) {
        let kept = device.prefix(max(0, limit - server.count))
        events = (server + kept).sorted { $0.seq < $1.seq }
        leftOut = deviceTotal - kept.count
    }
}
