import XCTest
@testable import NeuralRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `FloatStorage`'s large buffers: zero pages that stay untouched until used, even where the
/// allocator keeps big blocks in its heaps (`facetrack` sets glibc's thresholds as here: `MemoryPolicy`).
final class FloatStorageTests: XCTestCase {
    #if canImport(Glibc)
    func testLargeBufferIsNotTouchedUpFrontUnderAHighMmapThreshold() throws {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(try XCTUnwrap(dlsym(nil, "mallopt")), to: Mallopt.self)
        XCTAssertEqual(mallopt(-3, 64 << 20), 1, "M_MMAP_THRESHOLD")
        XCTAssertEqual(mallopt(-1, 256 << 20), 1, "M_TRIM_THRESHOLD: the freed block stays in the heap")
        // A 16 MiB block written and freed: calloc would hand it out again and clear every page.
        let bytes = 16 << 20
        let used = try XCTUnwrap(malloc(bytes))
        memset(used, 1, bytes)
        free(used)

        let storage = FloatStorage(counted: false)
        let buffer = storage.allocate(bytes / 4 - 64)
        XCTAssertEqual(buffer[0], 0)
        XCTAssertEqual(buffer[bytes / 4 - 65], 0)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = UnsafeMutableRawPointer(bitPattern: Int(bitPattern: buffer) & ~(page - 1))!
        var resident = [UInt8](repeating: 0, count: bytes / page)
        XCTAssertEqual(mincore(start, bytes - page, &resident), 0)
        XCTAssertLessThan(resident.filter { $0 & 1 != 0 }.count, 8, "pages resident before the buffer is used")
    }
    #endif
}
