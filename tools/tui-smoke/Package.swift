// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "tui-smoke", targets: [
    .systemLibrary(name: "CSQLite"), .systemLibrary(name: "CNcursesw"),
    .target(name: "QuakeStore", dependencies: ["CSQLite"]),
    .target(name: "QuakeScenes"),
    .target(name: "QuakeTUI", dependencies: ["QuakeStore", "QuakeScenes", "CNcursesw"]),
    .executableTarget(name: "tui-smoke", dependencies: ["QuakeTUI", "QuakeStore"]),
])
