import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

/// The second snapshot layer: colour roles per column, checked beside the text.
@Suite struct StyleLayerTests {
    @Test func magnitudeColumnsUseTheirBands() {
        let buffer = Screen.render(Fixtures.model(selected: nil))
        let styles = buffer.styleText.split(separator: "\n").map(String.init)
        // Row 1 names the columns (dim; the sort column `time ↓` in the header role); rows 3…5
        // are today's quakes: 6.4 (major), 2.1 (minor), 3.3 (light).
        #expect(styles[1].dropFirst(3).prefix(3) == "ddd" && styles[1].dropLast().hasSuffix("hhhhhhhh"))
        #expect(styles[3].dropFirst(3).prefix(3) == "333")
        #expect(styles[4].dropFirst(3).prefix(3) == "000")
        #expect(styles[5].dropFirst(3).prefix(3) == "111")
        // 5.1 is strong; 4.6 is strong.
        #expect(styles[7].dropFirst(3).prefix(3) == "222")
        #expect(styles[9].dropFirst(3).prefix(3) == "222")
        // Section headers use the header role.
        #expect(styles[2].prefix(4) == "hhhh")
        #expect(buffer[3, 3].style.attributes.contains(.bold))
    }

    @Test func listStyleLayer() {
        assertStyleSnapshot(Screen.render(Fixtures.model()), named: "list-day-sections")
    }

    @Test func epicentreMarkerIsDistinct() {
        let model = Fixtures.model(detail: DetailModel(tab: .map, record: Fixtures.record))
        let buffer = Screen.render(model)
        let markers = buffer.cells.enumerated().filter { $0.element.grapheme == MapView.marker }
        // One in the caption, one on the map.
        #expect(markers.count == 2)
        #expect(markers.allSatisfy { $0.element.style.foreground == .epicentre })
        #expect(buffer.cells.contains { $0.style.foreground == .land })
    }
}
