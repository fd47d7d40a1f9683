import Foundation

exit(Quaketui.main(Array(CommandLine.arguments.dropFirst())).rawValue)
