// tacit-retention-bench: creates per second while retention sweeps a backlog of finished
// verifications, against creates per second without a sweep, measured in the same run.
//
// It runs the whole application in process (`--dev`, the virtual operator delivering the
// codes) on a SQLite file: the security gate, the state machine, the store and its one
// writer, as `tacit serve` runs them, without the HTTP layer, which the sweep never touches
// and which would only dilute its share. In each of `--rounds` rounds it stores its share
// of `--rows` verifications finished longer ago than the retention, measures creates
// alone for `--seconds`, creates while one housekeeping round deletes that share, and
// creates alone for `--seconds` again.
// Alone and during take turns, so a neighbour's load or the growing number of pending
// verifications weighs on both alike; the ratio is of their rates over all rounds.
// `--rounds 1` is one sweep of all the rows, between two windows alone.
//
// Usage: tacit-retention-bench [--rows 100000] [--rounds 10] [--seconds 3] [--workers 16]
import Foundation

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? fallback
}
let bench = try RetentionBench(rows: option("--rows", 100_000), rounds: option("--rounds", 10), seconds: option("--seconds", 3),
                               workers: option("--workers", 16))
let report = try await bench.run()
print(report)
exit(report.passed ? 0 : 1)
