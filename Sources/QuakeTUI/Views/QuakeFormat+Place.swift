import Foundation
import QuakeModel

extension QuakeFormat {
    /// A feed's place name as one line of a list: controls stripped, tabs and line breaks as
    /// spaces, none at either end (a trailing tab or newline would otherwise cost a column and
    /// end a name that just fits in a stray `…`).
    static func singleLine(_ place: String) -> String {
        SafeText.sanitize(place).trimmingCharacters(in: .whitespaces)
    }
}
