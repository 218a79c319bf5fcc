import Foundation
import Testing
@testable import TacitServer
import TacitStore

@Suite("Token bucket")
struct TokenBucketTests {
    static let start = Date(timeIntervalSince1970: 1_796_000_000.37)

    @Test("a full bucket admits its capacity at once, then one hit per refill interval")
    func burstThenSteady() {
        var bucket = TokenBucket(capacity: 3, rate: RateLimit(1, per: 10), at: Self.start)
        #expect((0..<3).map { _ in bucket.take(at: Self.start) } == [nil, nil, nil])
        #expect(bucket.take(at: Self.start) == 10)
        #expect(bucket.take(at: Self.start.addingTimeInterval(4)) == 6)
        #expect(bucket.take(at: Self.start.addingTimeInterval(10)) == nil)
        #expect(bucket.take(at: Self.start.addingTimeInterval(10)) == 10)
    }

    @Test("a long pause refills no more than the capacity")
    func refillIsCapped() {
        var bucket = TokenBucket(capacity: 2, rate: RateLimit(1, per: 1), at: Self.start)
        _ = bucket.take(at: Self.start)
        _ = bucket.take(at: Self.start)
        let later = Self.start.addingTimeInterval(3_600)
        #expect(bucket.isFull(at: later))
        #expect([bucket.take(at: later), bucket.take(at: later), bucket.take(at: later)] == [nil, nil, 1])
    }

    @Test("a clock that steps back takes no tokens away and adds none")
    func clockBack() {
        var bucket = TokenBucket(capacity: 1, rate: RateLimit(1, per: 5), at: Self.start)
        #expect(bucket.take(at: Self.start) == nil)
        #expect(bucket.take(at: Self.start.addingTimeInterval(-30)) == 5)
        #expect(bucket.take(at: Self.start.addingTimeInterval(5)) == nil)
    }

    @Test("a capacity below one still admits one hit")
    func tinyCapacity() {
        var bucket = TokenBucket(capacity: 0, rate: RateLimit(1, per: 1), at: Self.start)
        #expect(bucket.take(at: Self.start) == nil)
        #expect(bucket.take(at: Self.start) == 1)
    }
}
