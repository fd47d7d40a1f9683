import QuakeModel
extension StoredQuake {
    static let columns = "id, code, magnitude, magType, place, time, updated, latitude, longitude, depth, status, type, tsunami, felt, alert, sig, net, url, title, notes, source"

    /// Reads the current row of a statement that selected `columns` first.
    init(_ s: Statement) {
        var record = QuakeRecord(
            code: s.text(at: 1), magnitude: s.optionalDouble(at: 2), magType: s.optionalText(at: 3),
            place: s.text(at: 4), time: s.int64(at: 5), updated: s.int64(at: 6),
            latitude: s.double(at: 7), longitude: s.double(at: 8), depth: s.optionalDouble(at: 9),
            status: s.optionalText(at: 10), type: s.optionalText(at: 11), tsunami: s.optionalInt(at: 12),
            felt: s.optionalInt(at: 13), alert: s.optionalText(at: 14), sig: s.optionalInt(at: 15),
            net: s.optionalText(at: 16), url: s.optionalText(at: 17), title: s.optionalText(at: 18))
        record.source = s.optionalText(at: 20)
        self.init(id: s.int64(at: 0), record: record, notes: s.optionalText(at: 19))
    }
}
