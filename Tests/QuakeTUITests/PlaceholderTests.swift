import Testing
@testable import QuakeTUI
