import QuakeModel
extension QuakeRow {
    static let columns = """
        code, magnitude, place, time, depth, latitude, longitude, notes IS NOT NULL, coalesce(source, 'usgs'), \
        coalesce(tsunami, 0) != 0, alert, type, magType, agencies
        """
    /// How many columns `columns` names (a query reading more after them starts here).
    static let columnCount: Int32 = 14

    /// Reads the current row of a statement that selected `columns` first.
    init(_ s: Statement) {
        self.init(code: s.text(at: 0), magnitude: s.optionalDouble(at: 1), place: s.text(at: 2), time: s.int64(at: 3),
                  depth: s.optionalDouble(at: 4), latitude: s.double(at: 5), longitude: s.double(at: 6),
                  hasNotes: s.int64(at: 7) != 0, source: s.text(at: 8), tsunami: s.int64(at: 9) != 0,
                  alert: s.optionalText(at: 10), type: s.optionalText(at: 11),
                  magType: s.optionalText(at: 12), agencies: Int(s.int64(at: 13)))
    }
}
