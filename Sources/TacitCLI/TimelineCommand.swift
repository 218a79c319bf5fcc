import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TacitKit

/// `tacit timeline`: prints a verification's timeline, follows it live over SSE,
/// exports it as JSON, or replays an export with its original pacing.
enum TimelineCommand: Command {
    static let usage = """
        Usage: tacit timeline REQUEST_ID [--server URL] [--follow] [--export FILE] [--json]
               tacit timeline replay FILE [--speed N]

        Prints a verification's redacted timeline: time since the first event, who saw it
        (server, device, operator, provider, webhook), what happened, and its label.

          --server URL    the Tacit server (default http://127.0.0.1:8080, or TACIT_SERVER)
          --follow        stream events live until the verification's summary
          --export FILE   also write the timeline export (JSON) to FILE
          --json          print the timeline export as JSON instead of text
          --speed N       replay N times faster than it happened (default 1)
        """

    static let name = "timeline"
    static let valued: Set<String> = ["server", "export", "speed"]
    static let flags: Set<String> = ["follow", "json"]

    static func run(_ parsed: Arguments, _ context: CommandContext) async throws -> Int32 {
        if parsed.positional.first == "replay" { return try await replay(parsed, context) }
        guard parsed.positional.count == 1, let id = parsed.positional.first else {
            let problem = parsed.positional.isEmpty ? "no REQUEST_ID given" : "too many arguments"
            throw Arguments.UsageError(message: problem)
        }
        guard parsed.value("speed") == nil else {
            throw Arguments.UsageError(message: "--speed only applies to replay")
        }
        let server = parsed.value("server") ?? context.environment["TACIT_SERVER"] ?? "http://127.0.0.1:8080"
        guard let base = URL(string: server), base.scheme == "http" || base.scheme == "https" else {
            throw Arguments.UsageError(message: "--server must be an http(s) URL")
        }
        do {
            try await show(id, base: base, parsed: parsed, context)
            return 0
        } catch let error as TacitError {
            context.printError("tacit: \(error.title ?? error.type): \(error.detail ?? "")")
            return 1
        } catch {
            context.printError("tacit: \(error)")
            return 1
        }
    }

    private static func show(_ id: String, base: URL, parsed: Arguments, _ context: CommandContext) async throws {
        let client = TacitClient(baseURL: base)
        let renderer = TimelineRenderer(color: context.color, output: context.output)
        if parsed.has("follow") {
            var first: Date?
            for try await event in client.eventStream(id) {
                first = first ?? event.at
                if !parsed.has("json") { renderer.print(event, since: first ?? event.at) }
            }
        }
        let wantsExport = parsed.has("json") || parsed.value("export") != nil
        if wantsExport {
            let raw = try await TimelineExportFile.fetch(id, base: base)
            if let file = parsed.value("export") { try raw.write(to: URL(fileURLWithPath: file)) }
            if parsed.has("json") { context.print(String(decoding: raw, as: UTF8.self)) }
        }
        if !parsed.has("follow") && !parsed.has("json") {
            let timeline = try await client.timeline(id)
            renderer.print(timeline)
        }
    }

    private static func replay(_ parsed: Arguments, _ context: CommandContext) async throws -> Int32 {
        guard parsed.positional.count == 2 else { throw Arguments.UsageError(message: "replay needs one FILE") }
        let others = parsed.value("server") != nil || parsed.value("export") != nil
            || parsed.has("follow") || parsed.has("json")
        guard !others else {
            throw Arguments.UsageError(message: "replay takes only --speed")
        }
        let speedText = parsed.value("speed") ?? "1"
        guard let speed = Double(speedText), speed > 0, speed.isFinite else {
            throw Arguments.UsageError(message: "--speed must be a positive number")
        }
        do {
            let timeline = try TimelineExportFile.read(parsed.positional[1])
            await TimelineRenderer(color: context.color, output: context.output).replay(timeline, speed: speed)
            return 0
        } catch {
            context.printError("tacit: \(parsed.positional[1]) is not a timeline export: \(error)")
            return 1
        }
    }
}
