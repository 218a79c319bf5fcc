// tacit-retention-bench: creates per second while retention sweeps a backlog of finished
// verifications, against creates per second without a sweep, measured in the same run.
//
// It runs the whole application in process (`--dev`, the virtual operator delivering the
// codes) on a SQLite file: the security gate, the state machine, the store and its one
// writer, as `tacit serve` runs them, without the HTTP layer, which the sweep never touches
// and which would only dilute its share. It fills the store with finished verifications
// older than the retention, then measures creates alone, creates while one housekeeping
// round deletes the backlog, and creates alone again; the ratio compares the middle
// phase with the mean of the other two.
//
// Usage: tacit-retention-bench [--rows 100000] [--seconds 5] [--workers 16]
import Foundation

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? fallback
}
let bench = try RetentionBench(rows: option("--rows", 100_000), seconds: option("--seconds", 5), workers: option("--workers", 16))
let report = try await bench.run()
print(report)
exit(report.passed ? 0 : 1)
