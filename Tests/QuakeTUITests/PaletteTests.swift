import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

@Suite struct PaletteTests {
    @Test func depthDetectionHonoursNoColor() {
        #expect(ColorDepth.detect(colors: 256, hasColors: true, environment: [:]) == .full256)
        #expect(ColorDepth.detect(colors: 16, hasColors: true, environment: [:]) == .sixteen)
        #expect(ColorDepth.detect(colors: 8, hasColors: true, environment: [:]) == .eight)
        #expect(ColorDepth.detect(colors: 2, hasColors: true, environment: [:]) == .monochrome)
        #expect(ColorDepth.detect(colors: 256, hasColors: false, environment: [:]) == .monochrome)
        #expect(ColorDepth.detect(colors: 256, hasColors: true, environment: ["NO_COLOR": "1"]) == .noColor)
        // An empty NO_COLOR does not count (no-color.org).
        #expect(ColorDepth.detect(colors: 256, hasColors: true, environment: ["NO_COLOR": ""]) == .full256)
    }

    @Test func magnitudeBandsPerDepth() {
        let major = MagnitudeBand.major.style
        #expect(Palette.resolve(major, depth: .full256) == ResolvedStyle(foreground: 196, attributes: [.bold]))
        #expect(Palette.resolve(major, depth: .sixteen) == ResolvedStyle(foreground: 9, attributes: [.bold]))
        #expect(Palette.resolve(major, depth: .eight) == ResolvedStyle(foreground: 1, attributes: [.bold]))
        #expect(Palette.resolve(major, depth: .monochrome) == ResolvedStyle(attributes: [.bold, .underline]))
        #expect(Palette.resolve(major, depth: .noColor) == ResolvedStyle(attributes: [.bold, .underline]))

        let strong = MagnitudeBand.strong.style
        #expect(Palette.resolve(strong, depth: .full256) == ResolvedStyle(foreground: 214, attributes: [.bold]))
        #expect(Palette.resolve(strong, depth: .eight) == ResolvedStyle(foreground: 3, attributes: [.bold]))
        #expect(Palette.resolve(strong, depth: .monochrome) == ResolvedStyle(attributes: [.bold]))

        let light = MagnitudeBand.light.style
        #expect(Palette.resolve(light, depth: .full256) == ResolvedStyle())
        #expect(Palette.resolve(light, depth: .noColor) == ResolvedStyle())

        let minor = MagnitudeBand.minor.style
        #expect(Palette.resolve(minor, depth: .full256) == ResolvedStyle(foreground: 244))
        #expect(Palette.resolve(minor, depth: .eight) == ResolvedStyle(foreground: 7, attributes: [.dim]))
        #expect(Palette.resolve(minor, depth: .monochrome) == ResolvedStyle(attributes: [.dim]))
    }

    @Test func selectionIsReverseVideoWithoutColour() {
        let selected = Style.plain.selected
        #expect(Palette.resolve(selected, depth: .noColor) == ResolvedStyle(attributes: [.reverse]))
        #expect(Palette.resolve(selected, depth: .monochrome) == ResolvedStyle(attributes: [.reverse]))
        #expect(Palette.resolve(selected, depth: .full256) == ResolvedStyle(background: 24))
        #expect(Palette.resolve(selected, depth: .eight) == ResolvedStyle(background: 4))
    }

    @Test func everyRoleResolvesWithinTheDepthsRange() {
        let roles: [ColorRole] = [.accent, .dim, .selection, .header, .error, .success, .warning, .border, .live,
                                  .land, .epicentre] + MagnitudeBand.allCases.map { .magnitude($0) }
        for role in roles {
            for (depth, limit) in [(ColorDepth.eight, 8), (.sixteen, 16), (.full256, 256)] {
                let resolved = Palette.resolve(Style(foreground: role, background: role), depth: depth)
                #expect((-1..<limit).contains(resolved.foreground), "\(role) on \(depth)")
                #expect((-1..<limit).contains(resolved.background), "\(role) on \(depth)")
            }
            let mono = Palette.resolve(.role(role), depth: .noColor)
            #expect(mono.foreground == -1 && mono.background == -1)
        }
    }

    /// By the magnitude as shown: 2.45 shows `2.5` and is light, 2.44 shows `2.4` and is minor.
    @Test(arguments: [(nil, MagnitudeBand.minor), (1.0, .minor), (2.44, .minor), (2.45, .light), (2.49, .light), (2.5, .light),
                      (4.44, .light), (4.45, .strong), (4.5, .strong), (5.94, .strong), (5.95, .major), (6.0, .major),
                      (9.1, .major)] as [(Double?, MagnitudeBand)])
    func bandsOfMagnitudes(magnitude: Double?, band: MagnitudeBand) {
        #expect(MagnitudeBand(magnitude: magnitude) == band)
    }
}
