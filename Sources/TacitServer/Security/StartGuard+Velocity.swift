import Foundation
import TacitPhone
import TacitStore

/// The sequential-number guard: distinct numbers per block, for every block size in
/// `SecurityConfiguration.velocityBudgets`, so a run spread over many hundred-blocks
/// still meets the budget of the ten-thousand-block that holds them.
extension StartGuard {
    func checkVelocity(_ number: PhoneNumber, now: Date) async throws {
        for budget in configuration.velocityBudgets {
            try await refuse("sequential_numbers", region: number.region) {
                try await spendVelocity(number, budget, now: now)
            }
        }
    }

    /// A number counts once per block per window. The block's count is taken before the
    /// number is marked as seen, so a refused number is judged again when it comes back
    /// rather than passing as one already counted.
    private func spendVelocity(_ number: PhoneNumber, _ budget: VelocityBudget, now: Date) async throws {
        let limit = budget.limit
        guard limit.limit > 0, number.e164.count > budget.tailDigits + 4 else { return }
        let member = RateLimit(1, per: limit.window), tail = String(budget.tailDigits)
        if case .limited = try await limiter.peek("velocity-member-" + tail, number.e164, member, at: now) { return }
        let block = String(number.e164.dropLast(budget.tailDigits))
        try await limiter.spend("velocity-range-" + tail, block, limit, at: now,
                                detail: "Too many numbers in one range were started recently; retry later.")
        _ = try await limiter.consume("velocity-member-" + tail, number.e164, member, at: now)
    }
}
