// swift-tools-version:6.0
// Swift 6 language mode: strict concurrency checking is on for every target.
import PackageDescription

/// A release build links the Swift runtime and Foundation into the binary (`swiftc
/// -static-stdlib`): the process then loads and relocates none of their fourteen shared libraries.
/// `quaketui status`, which tmux's status line runs every few seconds, starts in 6 ms instead of
/// 13, and a process holds 6.5 MB less (`--help`: 20.4 MB resident, not 26.9). The modules are
/// compiled as for the shared runtime, whose autolinking names only the libraries it links, so the
/// four static ones Foundation's need are named here, and lld (shipped with the toolchain)
/// resolves them in any order. Debug builds stay dynamic: they link faster, and the tests run
/// them. `.ci/run` builds and runs the release binary once.
let staticRuntimeInRelease: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-l_FoundationICU", "-lCoreFoundation", "-l_FoundationCShims", "-l_FoundationCollections"],
                 .when(configuration: .release)),
]

let package = Package(
    name: "quaketui",
    products: [
        .executable(name: "quaketui", targets: ["quaketui"]),
        .executable(name: "quakebench", targets: ["quakebench"]),
        .executable(name: "quaketui-http", targets: ["quaketui-http"]),
    ],
    targets: [
        // C libraries, each behind one system-library target (module map + shim header only).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // quaketui's own C, what SQLite calls per row: the distance function, the id set and its
        // SQL functions. Only QuakeStore/SQLite imports it (and its own tests).
        .target(name: "CQuakeSQL", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("sqlite3")]),

        // The app's clock and scheduler, injected so tests move time instead of sleeping.
        .target(name: "QuakeTime"),
        // Plain values: quakes, rows, sections, requests, result snapshots, statistics. No SQLite:
        // what the browser's update and views see of the store, and all they can.
        .target(name: "QuakeModel", dependencies: ["QuakeTime"]),
        // The store: the Core Data counterpart. Only QuakeStore/SQLite imports CSQLite.
        .target(name: "QuakeStore", dependencies: ["QuakeModel", "CSQLite", "CQuakeSQL", "QuakeTime"]),
        // Streaming feed readers that yield QuakeRecord values; no SQLite.
        .target(name: "QuakeFeed", dependencies: ["QuakeModel", "QuakeStore", "QuakeTime", "CZlib"]),
        // Scene storage, app storage, user activities, state directory.
        .target(name: "QuakeScenes", dependencies: ["QuakeTime"]),
        // The browser as values: its state, the pure update, the views into a cell buffer. It sees
        // the store only as plain values (QuakeModel): the compiler keeps a connection out of it.
        .target(name: "QuakeTUI", dependencies: ["QuakeModel", "QuakeScenes", "QuakeTime"]),
        // What carries the browser out: the terminal (the only importer of CNcursesw) and the
        // performer of the update's reads of the store (`BrowserModel`).
        .target(name: "QuakeTUIRuntime", dependencies: ["QuakeTUI", "QuakeModel", "QuakeStore", "QuakeScenes", "CNcursesw"]),

        // The only code that links FoundationNetworking (libcurl and ~25 TLS/LDAP/Kerberos
        // libraries): quaketui starts it per download, so nothing else pays for loading them.
        .executableTarget(name: "quaketui-http"),
        .executableTarget(name: "quaketui", dependencies: ["QuakeModel", "QuakeStore", "QuakeFeed", "QuakeScenes", "QuakeTUI", "QuakeTUIRuntime", "quaketui-http"],
                          linkerSettings: staticRuntimeInRelease),
        .executableTarget(name: "quakebench", dependencies: ["QuakeModel", "QuakeStore", "QuakeFeed", "QuakeScenes", "QuakeTUI", "QuakeTUIRuntime"],
                          linkerSettings: staticRuntimeInRelease),

        .target(name: "QuakeTestSupport", dependencies: ["QuakeModel", "QuakeStore", "QuakeTime"], path: "Tests/QuakeTestSupport"),
        // A child process for the store's multi-process tests (concurrent writers, observers, kill -9).
        .executableTarget(name: "store-probe", dependencies: ["QuakeStore", "QuakeTestSupport"], path: "Tests/StoreProbe"),
        // The C target's own tests call its C API directly (and QuakeStore only for GeoPoint).
        .testTarget(name: "CQuakeSQLTests", dependencies: ["CQuakeSQL", "CSQLite", "QuakeStore"]),
        .testTarget(name: "QuakeStoreTests", dependencies: ["QuakeStore", "QuakeTestSupport", "store-probe"]),
        .testTarget(name: "QuakeFeedTests", dependencies: ["QuakeFeed", "QuakeTestSupport"]),
        .testTarget(name: "QuakeScenesTests", dependencies: ["QuakeScenes", "QuakeTestSupport"]),
        .testTarget(name: "QuakeTUITests", dependencies: ["QuakeTUI", "QuakeTUIRuntime", "QuakeModel", "QuakeStore", "QuakeScenes", "QuakeTestSupport"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "EndToEndTests", dependencies: ["QuakeTestSupport", "QuakeScenes", "QuakeStore", "QuakeFeed", "QuakeTUI", "QuakeTUIRuntime", "quaketui"]),
    ]
)
