import QuakeStore

extension FetchedResultsController {
    /// Every section with its codes, in order, read through the controller's lazy windows: what
    /// the tests compare with `ExpectedResults.sections`.
    public func sectionContents() throws -> [ExpectedResults.Section] {
        let rows = try rows(in: 0..<count)
        return sections.indices.map { index in
            let start = offset(ofSection: index)
            return ExpectedResults.Section(id: sections[index].id, codes: rows[start..<start + sections[index].count].map(\.code))
        }
    }
}
