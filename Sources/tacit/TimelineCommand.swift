import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TacitKit

/// `tacit timeline`: prints a verification's timeline, follows it live over SSE,
/// exports it as JSON, or replays an export with its original pacing.
enum TimelineCommand {
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

    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: ["server", "export", "speed"], flags: ["follow", "json"])
        } catch let error as Arguments.UsageError {
            return CLI.usageError(error.message, usage: usage)
        } catch {
            return CLI.usageError("\(error)", usage: usage)
        }
        if parsed.positional.first == "replay" { return await replay(parsed) }
        guard parsed.positional.count == 1, let id = parsed.positional.first else {
            return CLI.usageError(parsed.positional.isEmpty ? "no REQUEST_ID given" : "too many arguments", usage: usage)
        }
        guard parsed.value("speed") == nil else { return CLI.usageError("--speed only applies to replay", usage: usage) }
        let server = parsed.value("server") ?? ProcessInfo.processInfo.environment["TACIT_SERVER"] ?? "http://127.0.0.1:8080"
        guard let base = URL(string: server), base.scheme == "http" || base.scheme == "https" else {
            return CLI.usageError("--server must be an http(s) URL", usage: usage)
        }
        do {
            try await show(id, base: base, parsed: parsed)
            return 0
        } catch let error as TacitError {
            CLI.printError("tacit: \(error.title ?? error.type): \(error.detail ?? "")")
            return 1
        } catch {
            CLI.printError("tacit: \(error)")
            return 1
        }
    }

    private static func show(_ id: String, base: URL, parsed: Arguments) async throws {
        let client = TacitClient(baseURL: base)
        let renderer = TimelineRenderer(color: TimelineRenderer.stdoutIsTerminal)
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
            if parsed.has("json") { FileHandle.standardOutput.write(raw + Data("\n".utf8)) }
        }
        if !parsed.has("follow") && !parsed.has("json") {
            let timeline = try await client.timeline(id)
            renderer.print(timeline)
        }
    }

    private static func replay(_ parsed: Arguments) async -> Int32 {
        guard parsed.positional.count == 2 else { return CLI.usageError("replay needs one FILE", usage: usage) }
        guard parsed.value("server") == nil, parsed.value("export") == nil, !parsed.has("follow"), !parsed.has("json") else {
            return CLI.usageError("replay takes only --speed", usage: usage)
        }
        let speedText = parsed.value("speed") ?? "1"
        guard let speed = Double(speedText), speed > 0, speed.isFinite else {
            return CLI.usageError("--speed must be a positive number", usage: usage)
        }
        do {
            let timeline = try TimelineExportFile.read(parsed.positional[1])
            await TimelineRenderer(color: TimelineRenderer.stdoutIsTerminal).replay(timeline, speed: speed)
            return 0
        } catch {
            CLI.printError("tacit: \(parsed.positional[1]) is not a timeline export: \(error)")
            return 1
        }
    }
}
