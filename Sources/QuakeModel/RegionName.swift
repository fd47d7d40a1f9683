/// The region section a place's last part belongs to, named as USGS names regions: the country,
/// US state or sea. Flinn–Engdahl region names (Young et al. 1996; the names the ISC, EMSC, IRIS
/// and GEOFON write) qualify theirs — `WESTERN TURKEY`, `NEAR EAST COAST OF HONSHU`,
/// `SOUTH OF FIJI ISLANDS`, `TURKEY-IRAN BORDER REGION`, `FIJI ISLANDS REGION` — where USGS writes
/// `…, Turkey`, `…, Japan`, `…, Fiji`. So the qualifier goes, the island or province goes to its
/// country (`parentRegions`), and a renamed or respelled country to one name; the place keeps the
/// full name (the detail shows it). Names written in capitals are title-cased (`PlaceName`).
///
/// ```swift
/// RegionName.grouped("WESTERN TURKEY")              // "Turkey"
/// RegionName.grouped("TURKEY-IRAN BORDER REGION")   // "Turkey": a border region, under the first country named
/// RegionName.grouped("south of the Fiji Islands")   // "Fiji"
/// RegionName.grouped("Southern East Pacific Rise")  // "East Pacific Rise"
/// ```
///
/// Idempotent: `grouped(grouped(x)) == grouped(x)`, which schema migration 13 relies on to
/// regroup stored regions from their stored names.
public enum RegionName {
    /// The region for `name`, the (spelled-out) last part of a place.
    public static func grouped(_ name: String) -> String {
        let titled = PlaceName.displayed(name)
        var words = titled.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard !words.isEmpty else { return name }
        // A border region goes under the first country it names ("Turkey-Iran Border Region").
        if let border = words.lastIndex(where: { $0.lowercased() == "border" }), border > 0,
           words[border...].dropFirst().allSatisfy({ ["region", "reg.", "reg", "area"].contains($0.lowercased()) }),
           let hyphen = words[border - 1].firstIndex(of: "-") {
            words = Array(words[..<(border - 1)]) + [String(words[border - 1][..<hyphen])]
            words = words.filter { !$0.isEmpty }
        }
        // "… Region", "… Reg.": the region of the name before it.
        while words.count > 1, ["region", "reg.", "area"].contains(words[words.count - 1].lowercased()) { words.removeLast() }
        // The qualifiers before the name, as long as a name is left and it is not a name of its own.
        while words.count > 1, !keptWhole.contains(TextFolding.fold(words.joined(separator: " "))) {
            let first = words[0].lowercased(), second = words.count > 2 ? words[1].lowercased() : ""
            if qualifiers.contains(first) || first == "the" {
                words.removeFirst()
            } else if directions.contains(first), second == "of" {
                words.removeFirst(2)
            } else if directions.contains(first), second == "coast", words.count > 3, words[2].lowercased() == "of" {
                words.removeFirst(3)
            } else if first == "coast", second == "of" {
                words.removeFirst(2)
            } else {
                break
            }
        }
        let remainder = words.joined(separator: " ")
        let key = TextFolding.fold(remainder)
        if let parent = parentRegions[key] { return parent }
        // A region left in lower case after its qualifier ("western Turkey" → "turkey" never;
        // "off the coast of oregon") starts with a capital, as a section title does.
        guard let first = remainder.first, first.isLowercase else { return remainder }
        return first.uppercased() + remainder.dropFirst()
    }

    /// Words that qualify a region and go: position (`northern`, `central`) and nearness (`near`,
    /// `off`, `offshore`).
    package static let qualifiers: Set<String> = [
        "northern", "southern", "eastern", "western", "central", "northeastern", "northwestern", "southeastern",
        "southwestern", "north-central", "south-central", "east-central", "west-central", "near", "off", "offshore",
    ]

    /// Directions that qualify a region when `of` (or `coast of`) follows: `south of Fiji Islands`,
    /// `off west coast of`, `OFF W COAST OF` (Flinn–Engdahl abbreviates them).
    package static let directions: Set<String> = [
        "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest",
        "n", "s", "e", "w", "ne", "nw", "se", "sw", "n.", "s.", "e.", "w.",
    ]

    /// Names that start with a qualifier but are a place of their own (folded).
    package static let keptWhole: Set<String> = [
        "central african republic", "central america", "central asia", "south africa", "north korea", "south korea",
        "south sudan", "east timor", "western sahara", "west bank", "northern territory", "northern mariana islands",
        "northern ireland",
    ]

    /// A Flinn–Engdahl region that is part of a country, US state or region USGS names instead,
    /// and names written several ways (folded, after the qualifiers go).
    public static let parentRegions: [String: String] = [
        // Renamed and respelled countries: one section whatever the catalogue's year.
        "turkiye": "Turkey", "burma": "Myanmar", "swaziland": "Eswatini", "fiji islands": "Fiji",
        "p.n.g.": "Papua New Guinea", "ivory coast": "Côte d'Ivoire", "cote d'ivoire": "Côte d'Ivoire",
        // Japan.
        "honshu": "Japan", "hokkaido": "Japan", "kyushu": "Japan", "shikoku": "Japan", "ryukyu islands": "Japan",
        "izu islands": "Japan", "bonin islands": "Japan", "volcano islands": "Japan", "hokkaido, japan region": "Japan",
        // Indonesia.
        "sumatra": "Indonesia", "sumatera": "Indonesia", "java": "Indonesia", "jawa": "Indonesia", "sulawesi": "Indonesia",
        "celebes": "Indonesia", "bali": "Indonesia", "lombok": "Indonesia", "sumbawa": "Indonesia", "flores": "Indonesia",
        "halmahera": "Indonesia", "seram": "Indonesia", "ceram": "Indonesia", "kalimantan": "Indonesia", "minahasa": "Indonesia",
        // The Philippines.
        "mindanao": "Philippines", "luzon": "Philippines", "philippine islands": "Philippines", "samar": "Philippines",
        "leyte": "Philippines", "negros": "Philippines", "panay": "Philippines", "mindoro": "Philippines",
        // China.
        "xizang": "China", "tibet": "China", "xinjiang": "China", "sichuan": "China", "yunnan": "China", "qinghai": "China",
        "gansu": "China",
        // Russia and Alaska.
        "kuril islands": "Russia", "kurile islands": "Russia", "kamchatka": "Russia", "kamchatka peninsula": "Russia",
        "komandorskiye ostrova": "Russia", "sakhalin": "Russia",
        "aleutian islands": "Alaska", "aleutian is.": "Alaska", "andreanof islands": "Alaska", "fox islands": "Alaska",
        "rat islands": "Alaska", "near islands": "Alaska", "kenai peninsula": "Alaska",
        // Others.
        "crete": "Greece", "dodecanese islands": "Greece", "sicily": "Italy", "hindu kush": "Afghanistan",
        "north island": "New Zealand", "south island": "New Zealand", "western australia": "Australia",
        "new britain": "Papua New Guinea", "new ireland": "Papua New Guinea", "bougainville": "Papua New Guinea",
        "mariana islands": "Northern Mariana Islands",
    ]
}
