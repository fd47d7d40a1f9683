import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The controller stays lazy at a million rows: it reads only the rows near what is shown.
@Suite struct LazinessTests {
    @Test func aMillionQuakesMaterializeOnlyAWindow() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.generate(count: 1_000_000)
        let controller = try FetchedResultsController(container: store.container)
        defer { controller.close() }
        #expect(controller.count == 1_000_000)
        #expect(controller.rowsMaterialized == 0)

        // First screen, scrolling a page, jumping to the middle and to the end.
        var shown = 0
        for range in [0..<40, 1..<41, 40..<80, 500_000..<500_040, 999_960..<1_000_000] {
            let rows = try controller.rows(in: range)
            #expect(rows.count == 40)
            shown += 1
        }
        #expect(controller.rowsMaterialized <= 5 * (40 + 2 * controller.windowMargin),
                "materialized \(controller.rowsMaterialized) rows for \(shown) windows")

        // Sorting and searching re-read the section index, not the rows.
        let before = controller.rowsMaterialized
        for (order, search) in [(QuakeSortOrder.magnitude, ""), (.region, ""), (.time, "town 42"), (.region, "km n")] {
            var request = controller.request
            request.sortDescriptor = QuakeSortDescriptor(order)
            request.predicate.searchText = search
            try controller.configure(request)
            _ = try controller.rows(in: 0..<40)
        }
        #expect(controller.rowsMaterialized - before <= 4 * (40 + controller.windowMargin))
    }
}
