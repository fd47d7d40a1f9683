/// The names one place goes by in the catalogues quaketui reads: the Flinn–Engdahl spellings
/// (Young et al. 1996, and its 2018 revision the ISC and EMSC write: `Sumatera`, `Jawa`, `Xizang`),
/// the older names historical catalogues keep (`Burma`, `Celebes`), and countries renamed since
/// (`Türkiye`, `Eswatini`). A search for one finds the others (`PlaceSearch`); README's
/// "Place names" lists the table.
///
/// Each entry is one name per word, folded (`TextFolding`): single words only, so that no
/// ordinary word (`coast`, `republic`, `north`) stands for a country. A name that holds another
/// (`molucca`, `moluccas`) needs no entry: the search is a substring search already.
public enum PlaceSpellings {
    /// Groups of names for one place, folded.
    public static let groups: [[String]] = [
        ["sumatra", "sumatera"],
        ["java", "jawa"],
        ["sulawesi", "celebes"],
        ["kalimantan", "borneo"],
        ["maluku", "molucca"],
        ["seram", "ceram"],
        ["turkey", "turkiye"],
        ["myanmar", "burma"],
        ["eswatini", "swaziland"],
        ["xizang", "tibet"],
        ["xinjiang", "sinkiang"],
        ["taiwan", "formosa"],
        ["kyrgyzstan", "kirghizia", "kirgizia"],
        ["kazakhstan", "kazakstan"],
        ["moldova", "moldavia"],
        ["belarus", "byelorussia"],
        ["vanuatu", "hebrides"],
        ["ryukyu", "nansei"],
        ["bonin", "ogasawara"],
        ["komandorskiye", "komandorski", "commander"],
    ]

    /// The names a search word also matches: for each group with a name that holds `word` (so
    /// that `sumat`, `sumate` and `sumatera` all find `Sumatra` too), the group's other names.
    /// A word of fewer than three characters has none: it matches too much to say which place it
    /// means. The word itself is not in the list.
    public static func otherNames(of word: String) -> [String] {
        guard word.unicodeScalars.count >= 3 else { return [] }
        var names: [String] = []
        for group in groups where group.contains(where: { $0.contains(word) }) {
            for name in group where !name.contains(word) && !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The places' endings a search word also matches: `, ` and the postal code USGS ends a
    /// place with (`QuakeRecord.spelledOutRegions`: "…, CA", "…, NV", "…, MX") for each name that
    /// holds `word` (`calif` and `california` find ", ca"), so that a place is searched as the
    /// region its section shows. A word of fewer than three characters has none, as for
    /// `otherNames(of:)`.
    public static func endings(of word: String) -> [String] {
        guard word.unicodeScalars.count >= 3 else { return [] }
        return spelledOutEndings.filter { $0.name.contains(word) }.map(\.ending)
    }

    /// Each region's folded name and its ending, in the order of its code.
    private static let spelledOutEndings: [(name: String, ending: String)] = QuakeRecord.spelledOutRegions
        .sorted { $0.key < $1.key }
        .map { (TextFolding.fold($0.value), ", " + TextFolding.fold($0.key)) }
}
