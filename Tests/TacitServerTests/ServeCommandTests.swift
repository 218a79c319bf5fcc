import Foundation
import Testing
import TacitTesting

/// `tacit serve` run as the built binary: its lifecycle as an operator sees it.
@Suite("tacit serve", .timeLimit(.minutes(1)))
struct ServeCommandTests {
    @Test("SIGTERM drains the server and exits 0")
    func terminates() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, url) = try await TimelineCLITests.serve(directory)
        defer { server.terminate() }
        #expect(try await TimelineCLITests.call("GET", url + "/readyz")["status"] as? String == "ready")
        server.terminate()
        let out = try await offThePool {
            let out = String(decoding: server.standardOutput!.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            server.waitUntilExit()
            return out
        }
        #expect(server.terminationStatus == 0)
        #expect(out.contains("Shutting down"))
    }
}
