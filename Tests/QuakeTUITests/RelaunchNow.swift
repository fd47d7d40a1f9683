import Foundation

/// When a test's scene relaunches, as the runtime passes it to `AppState.restore(from:now:)`:
/// the wall clock, as a real relaunch has it (`:since` filters count back from it).
var relaunchNow: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
