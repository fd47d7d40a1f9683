import QuakeModel

extension QuakeSection {
    /// A section built by hand for a test (a layout, a whole-state expectation): `id` is also its
    /// region key.
    public init(id: String, title: String, count: Int) {
        self.init(id: id, title: title, count: count, key: .region(id))
    }

    /// A region section built by hand: `key` is its ID, its title and its region key.
    public static func region(_ key: String, _ count: Int) -> QuakeSection {
        QuakeSection(id: key, title: key, count: count)
    }
}
