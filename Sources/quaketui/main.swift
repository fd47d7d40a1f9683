import Foundation

let status = Quaketui.main(Array(CommandLine.arguments.dropFirst()))
// For tests: what follows the browser's `quit` line (releasing the app) until the process exits.
FrameTrace.appendExit(environment: ProcessInfo.processInfo.environment)
exit(status.rawValue)
