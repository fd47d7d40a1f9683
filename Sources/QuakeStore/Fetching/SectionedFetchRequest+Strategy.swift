import QuakeModel
import Foundation

extension SectionedFetchRequest {
    public var sectionIdentifier: SectionIdentifier { strategy.sectionIdentifier(timeZone: timeZone) }

    /// This request as the controller runs it: a `distance` sort without a reference is a `time`
    /// sort (`SortStrategy.canRun`).
    var normalized: SectionedFetchRequest {
        guard !strategy.canRun else { return self }
        var request = self
        request.sortDescriptor = QuakeSortDescriptor(.time)
        return request
    }
}
