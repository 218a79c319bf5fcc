import Foundation
import Synchronization
import TacitCore
import TacitHTTP
import TacitServer
import TacitStore

extension RetentionBench {
    struct Phase {
        var count: Int
        var seconds: Double
        var rate: Double { seconds > 0 ? Double(count) / seconds : 0 }

        mutating func add(_ other: Phase) {
            count += other.count
            seconds += other.seconds
        }
    }

    /// Stores the verifications numbered `range`, finished 40 days ago, each with the four
    /// events a started-then-cancelled one has, through the store's own inserts.
    func fill(_ range: Range<Int>) async throws {
        let ended = Date().addingTimeInterval(-40 * 86_400)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for slice in 0..<workers {
                group.addTask { [self] in
                    for index in stride(from: range.lowerBound + slice, to: range.upperBound, by: workers) {
                        var verification = Verification(id: "vf_old\(index)", phoneNumber: String(format: "+9906%08d", index),
                                                        options: VerificationOptions(workflow: [.sms]), clientTokenHash: [1],
                                                        createdAt: ended.addingTimeInterval(-60),
                                                        state: .finished(.cancelled))
                        verification.endedAt = ended
                        let events = (0..<4).map { EventDraft("bench:event\($0)", note: "a note the size of a real one, more or less") }
                        _ = try await store.insert(verification, events: events, at: ended, idempotency: nil)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Verifications the round deleted, as `/metrics` counts them.
    func sweptVerifications() async -> Int {
        guard case .bytes(let body) = await application.handle(HTTPRequest(method: "GET", path: "/metrics")).body else { return 0 }
        let prefix = #"tacit_housekeeping_swept_rows_total{kind="verifications"} "#
        let line = String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    /// Creates from `workers` tasks for `seconds`.
    func creates(for seconds: Double) async -> Phase {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        return await creates { ContinuousClock.now >= deadline }
    }

    /// Creates from `workers` tasks until `task` has finished.
    func creates(until task: Task<Void, Never>) async -> Phase {
        let done = Flag()
        let watcher = Task { await task.value; done.value.store(true, ordering: .relaxed) }
        defer { watcher.cancel() }
        return await creates { done.value.load(ordering: .relaxed) }
    }

    private func creates(stop: @escaping @Sendable () -> Bool) async -> Phase {
        let start = ContinuousClock.now
        let count = await withTaskGroup(of: Int.self, returning: Int.self) { group in
            for _ in 0..<workers {
                group.addTask { [self] in
                    var made = 0
                    while !stop() {
                        if await create() { made += 1 }
                    }
                    return made
                }
            }
            return await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        return Phase(count: count, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// One `POST /v1/verifications` for a number not used before; true on 202.
    func create() async -> Bool {
        let number = String(format: "+9905%08d", numbers.add(1, ordering: .relaxed).newValue)
        let body = #"{"phone_number":"\#(number)","workflow":[{"channel":"sms"}],"channel_timeout":900}"#
        let request = HTTPRequest(method: "POST", path: "/v1/verifications",
                                  headers: ["Content-Type": "application/json", "Host": "127.0.0.1", "Content-Length": String(body.utf8.count)],
                                  body: Array(body.utf8))
        return await application.handle(request).status == 202
    }
}

/// A flag the create workers read while another task sets it.
final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
