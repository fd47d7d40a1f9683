import QuakeModel
import QuakeStore
import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// The sort orders a user may name (issue 56: `list --sort mag`, as the column header writes it,
/// was refused with no suggestion).
@Suite struct SortOrderNameTests {
    @Test func anOrderIsItsNameOrTheStartOfOneNameAlone() {
        for order in QuakeSortOrder.allCases { #expect(QuakeSortOrder(named: order.rawValue) == order) }
        #expect(QuakeSortOrder(named: "mag") == .magnitude)
        #expect(QuakeSortOrder(named: "MAG") == .magnitude)
        #expect(QuakeSortOrder(named: "dep") == .depth)
        #expect(QuakeSortOrder(named: "di") == .distance)
        #expect(QuakeSortOrder(named: "d") == nil, "depth or distance")
        #expect(QuakeSortOrder(named: "") == nil)
        #expect(QuakeSortOrder(named: "magnitud3") == nil)
        #expect(Spelling.didYouMean("magnitud3", in: QuakeSortOrder.allCases.map(\.rawValue)) == " Did you mean 'magnitude'?")
    }
}
