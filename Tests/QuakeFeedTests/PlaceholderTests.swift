import Testing
@testable import QuakeFeed
