import QuakeTUI
/// How the browser's process is set up before its threads start, said once for the real
/// browser (`quaketui`) and for quakebench's model of it.
public enum BrowserProcess {
    /// At most two malloc arenas. glibc gives each thread that allocates its own (up to eight a
    /// core), and every reader thread of the browser (counts, statistics, map) then kept the
    /// BLOB buffers of its digest passes in an arena of its own: at 5,000,000 quakes the
    /// statistics' keys peaked at 58.4 MB of RSS with as many arenas as threads, 54.9 MB with two.
    ///
    /// And every block of 256 KiB or more mapped apart, and unmapped when freed: glibc otherwise
    /// raises that line to the largest block freed (up to 32 MiB), so a statistics pass's 20 MB of
    /// rows, once freed, was served again from an arena that kept it, beside the next reader's.
    public static func limitMallocArenas() {
        #if os(Linux)
        _ = mallopt(mArenaMax, 2)
        _ = mallopt(mMmapThreshold, 256 << 10)
        #endif
    }

    #if os(Linux)
    /// glibc's `M_ARENA_MAX` and `M_MMAP_THRESHOLD` (<malloc.h>, which the Glibc module does not bring in).
    private static let mArenaMax: Int32 = -8, mMmapThreshold: Int32 = -3
    #endif
}

#if os(Linux)
/// glibc's `int mallopt(int param, int value)` (<malloc.h>).
@_silgen_name("mallopt")
private func mallopt(_ param: Int32, _ value: Int32) -> Int32
#endif
