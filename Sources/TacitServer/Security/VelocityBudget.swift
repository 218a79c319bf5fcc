import Foundation
import TacitStore

/// How many distinct numbers of one block (numbers sharing all but their last
/// `tailDigits` digits) may start within `limit.window`.
public struct VelocityBudget: Sendable, Equatable {
    public var tailDigits: Int
    public var limit: RateLimit

    public init(tailDigits: Int, limit: RateLimit) {
        self.tailDigits = tailDigits
        self.limit = limit
    }
}

extension SecurityConfiguration {
    /// Every velocity budget, finest block first: `velocity` over `velocityTailDigits`,
    /// then `velocityBlocks`.
    var velocityBudgets: [VelocityBudget] {
        [VelocityBudget(tailDigits: velocityTailDigits, limit: velocity)] + velocityBlocks
    }
}
