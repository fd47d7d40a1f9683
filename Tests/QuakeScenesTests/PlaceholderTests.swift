import Testing
@testable import QuakeScenes
