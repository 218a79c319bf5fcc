import Foundation
import TacitKit

/// Renders timeline events as readable lines: the offset from the first event, a
/// source badge, the note (green on success, red on failure), and the label under
/// it in its channel's colour. Colour only when writing to a terminal.
struct TimelineRenderer: Sendable {
    var color: Bool
    var output: any TextOutput

    func print(_ timeline: Timeline) {
        header(timeline)
        let start = timeline.events.first?.at ?? Date()
        for event in timeline.events { print(event, since: start) }
    }

    /// Shows the events with the gaps they had when they happened, divided by `speed`.
    func replay(_ timeline: Timeline, speed: Double) async {
        header(timeline)
        guard let start = timeline.events.first?.at else { return }
        var previous = start
        for event in timeline.events {
            let gap = max(0, event.at.timeIntervalSince(previous)) / speed
            if gap > 0 { try? await Task.sleep(for: .milliseconds(Int64((gap * 1000).rounded()))) }
            previous = event.at
            print(event, since: start)
        }
    }

    func print(_ event: TimelineEvent, since start: Date) {
        let offset = String(format: "+%8.3fs", event.at.timeIntervalSince(start))
        let badge = paint(pad("[\(event.source)]", 10), Self.sourceColors[event.source] ?? "37")
        let noteColor = event.outcome == "success" ? "32" : event.outcome == "failure" ? "31" : "0"
        let note = paint(event.note ?? "", noteColor)
        let label = paint(event.label, Self.channelColors[event.channel ?? String(event.labelChannel)] ?? "2")
        output.write("\(paint(offset, "2"))  \(badge) \(note)\n" + String(repeating: " ", count: 22) + label + "\n")
    }

    private func header(_ timeline: Timeline) {
        let steps = timeline.summary.workflow.map { "\($0.channel.rawValue): \($0.status.rawValue)" }
            .joined(separator: ", ")
        let status = timeline.summary.status.rawValue
        var text = paint("Verification \(timeline.requestId): \(status) (\(steps))", "1") + "\n"
        if timeline.partial {
            let count = timeline.eventsLeftOut
            let leftOut = "\(count) device event\(count == 1 ? " was" : "s were") left out"
            text += paint("Partial export: \(leftOut); every server event is here.", "33") + "\n"
        }
        output.write(text)
    }

    static let sourceColors = ["server": "36", "device": "34", "operator": "33", "provider": "35", "webhook": "32"]
    /// Silent auth purple, SMS magenta, voice orange, as in the console.
    static let channelColors = [
        "silent_auth": "38;5;135", "sms": "38;5;201", "voice": "38;5;208", "whatsapp": "38;5;35",
    ]

    private func paint(_ text: String, _ code: String) -> String {
        color && code != "0" ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
