@testable import QuakeStore
import Testing

/// When the results engine tries a request exactly and when it goes to its window at once.
@Suite struct ExactAttemptsTests {
    @Test func everythingIsTriedUntilSomethingIsSlow() {
        let attempts = ExactAttempts()
        for order in QuakeSortOrder.allCases {
            #expect(attempts.tries(order, shown: .time))
            #expect(attempts.tries(order, shown: order))
        }
    }

    /// The sequence `s` walks at 1M quakes: magnitude and depth counts take longer than the
    /// budget, region's fits. Region fitting must not make the next depth sort try again.
    @Test func aNewOrderGoesByItsOwnLastAnswerNotByTheOrderBefore() {
        var attempts = ExactAttempts()
        attempts.record(.depth, withinBudget: false)
        attempts.record(.region, withinBudget: true)
        #expect(!attempts.tries(.depth, shown: .region))
        #expect(attempts.tries(.magnitude, shown: .region))
        #expect(attempts.tries(.region, shown: .time))
    }

    /// A new search or filter in the order shown goes by the last answer, whatever its order.
    @Test func aNewSearchGoesByTheLastAnswer() {
        var attempts = ExactAttempts()
        attempts.record(.time, withinBudget: false)
        #expect(!attempts.tries(.time, shown: .time))
        attempts.record(.time, withinBudget: true)
        #expect(attempts.tries(.time, shown: .time))
        attempts.record(.magnitude, withinBudget: false)
        #expect(!attempts.tries(.region, shown: .region))
    }

    /// An order whose answer fits again is tried again.
    @Test func anOrderThatFitsAgainIsTriedAgain() {
        var attempts = ExactAttempts()
        attempts.record(.magnitude, withinBudget: false)
        attempts.record(.magnitude, withinBudget: true)
        #expect(attempts.tries(.magnitude, shown: .time))
        #expect(attempts.slowOrders.isEmpty)
    }
}
