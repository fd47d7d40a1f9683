// libFuzzer entry for the state-file reader: the bytes of a scene plist, defaults.plist or
// activity.plist go through the same parse and key checks the app uses when it loads them.
import Foundation
@testable import QuakeScenes

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    guard let root = PropertyListItem.rootDictionary(from: bytes) else { return 0 }
    for checks in [SceneKeys.checks, AppKeys.checks] {
        for check in checks { _ = root[check.name].map(check.accepts) }
    }
    return 0
}
