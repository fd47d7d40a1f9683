import QuakeModel

/// One line of the list: a section header, or a quake row (by flat result offset).
public enum DisplayLine: Equatable, Sendable {
    case header(section: Int)
    case row(section: Int, offset: Int)

    public var section: Int {
        switch self {
        case .header(let section), .row(let section, _): section
        }
    }
}

/// Maps display lines to sections and rows, given which sections are collapsed: a header line
/// per section, then its rows unless collapsed. O(log sections) per lookup, no row reads.
public struct DisplayLayout: Equatable, Sendable {
    /// Display line of each section's header.
    private var headerLines: [Int] = []
    private var rowStarts: [Int] = []
    private var counts: [Int] = []
    private var expanded: [Bool] = []
    public private(set) var lineCount = 0

    public init(sections: [QuakeSection], sectionStarts: [Int], collapsed: Set<String>) {
        var line = 0
        for (index, section) in sections.enumerated() {
            headerLines.append(line)
            rowStarts.append(sectionStarts[index])
            counts.append(section.count)
            let isExpanded = !collapsed.contains(section.id)
            expanded.append(isExpanded)
            line += 1 + (isExpanded ? section.count : 0)
        }
        lineCount = line
    }

    public func line(at index: Int) -> DisplayLine? {
        guard index >= 0 && index < lineCount else { return nil }
        var low = 0, high = headerLines.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if headerLines[mid] <= index { low = mid } else { high = mid - 1 }
        }
        let within = index - headerLines[low]
        return within == 0 ? .header(section: low) : .row(section: low, offset: rowStarts[low] + within - 1)
    }

    public func headerLine(ofSection section: Int) -> Int { headerLines[section] }

    /// The display line of a result offset, or nil when its section is collapsed.
    public func line(ofOffset offset: Int, section: Int) -> Int? {
        guard expanded[section] else { return nil }
        return headerLines[section] + 1 + (offset - rowStarts[section])
    }
}
