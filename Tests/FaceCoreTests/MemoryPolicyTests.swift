import Foundation
import XCTest
@testable import FaceCore
#if canImport(Glibc)
import Glibc
#endif

/// The allocator settings `facetrack` makes at start (`MemoryPolicy`): which, and that glibc takes them.
final class MemoryPolicyTests: XCTestCase {
    func testBothThresholdsWithoutTheUsersOwn() {
        let chosen = MemoryPolicy.settings(environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2", "MALLOC_ARENA_MAX": "2"])
        XCTAssertEqual(chosen.map(\.name), ["mmap threshold", "trim threshold"])
        XCTAssertEqual(chosen.map(\.bytes), [64 << 20, 256 << 20])
    }

    /// A threshold the user set through GLIBC_TUNABLES or glibc's MALLOC_*_ variables is theirs:
    /// `mallopt` would override it.
    func testTheUsersSettingWins() {
        XCTAssertEqual(MemoryPolicy.settings(environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072"])
            .map(\.name), ["trim threshold"])
        XCTAssertEqual(MemoryPolicy.settings(environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"]).map(\.name), ["mmap threshold"])
        XCTAssertEqual(MemoryPolicy.settings(environment: ["MALLOC_TRIM_THRESHOLD_": "131072", "MALLOC_MMAP_THRESHOLD_": "131072"]), [])
        XCTAssertEqual(MemoryPolicy.settings(environment: ["MALLOC_MMAP_THRESHOLD_": ""]).count, 2, "an empty variable sets nothing")
    }

    #if canImport(Glibc)
    /// glibc takes the settings: a 48 MiB block, which glibc maps on its own by default (its
    /// threshold never rises above 32 MiB), comes from a heap afterwards. Checks the parameter
    /// numbers copied from <malloc.h> as well.
    func testGlibcKeepsBlocksBelowTheThresholdInItsHeaps() throws {
        XCTAssertEqual(MemoryPolicy.apply(environment: [:]).count, 2)
        let before = try mappedBlocks()
        let block = try XCTUnwrap(malloc(48 << 20))
        defer { free(block) }
        XCTAssertEqual(try mappedBlocks(), before, "a 48 MiB block got its own mapping")
    }

    /// Under those thresholds a freed 32 MiB block stays resident in its heap; `releaseFreedMemory`
    /// (called once a run's models are loaded) gives its pages back.
    func testReleaseFreedMemoryGivesAFreedHeapBlocksPagesBack() throws {
        XCTAssertEqual(MemoryPolicy.apply(environment: [:]).count, 2)
        let bytes = 32 << 20, page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let block = try XCTUnwrap(malloc(bytes))
        // A block after it (1 MiB: carved from the heap's top, not from a bin), so the freed one
        // lies inside the heap as the models' freed copies do, not at its top.
        let after = try XCTUnwrap(malloc(1 << 20))
        memset(after, 1, 1 << 20)
        defer { free(after) }
        memset(block, 1, bytes)
        free(block)
        // The pages well inside the freed block (its first holds the allocator's own bookkeeping).
        let start = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: block) + 2 * page) & ~(page - 1))!
        let count = bytes / page - 4
        func resident() -> Int {
            var flags = [UInt8](repeating: 0, count: count)
            // ENOMEM: the range is no longer mapped at all (given back), so none of it is resident.
            guard mincore(start, count * page, &flags) == 0 else { return errno == ENOMEM ? 0 : -1 }
            return flags.filter { $0 & 1 != 0 }.count
        }
        XCTAssertGreaterThan(resident(), count * 9 / 10, "the freed block's pages before the release")
        MemoryPolicy.releaseFreedMemory()
        let left = resident()
        XCTAssertTrue(left >= 0 && left < count / 10, "\(left) of the freed block's \(count) pages resident after the release")
    }

    /// How many blocks glibc has mapped on their own, from `malloc_info`'s `<total type="mmap" count=...>`.
    private func mappedBlocks() throws -> Int {
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        let symbol = try XCTUnwrap(dlsym(nil, "malloc_info"))
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        let stream = try XCTUnwrap(open_memstream(&buffer, &size))
        XCTAssertEqual(unsafeBitCast(symbol, to: MallocInfo.self)(0, stream), 0)
        fclose(stream)
        defer { free(buffer) }
        let xml = String(cString: try XCTUnwrap(buffer))
        let total = try XCTUnwrap(xml.split(separator: "\n").last { $0.contains("<total type=\"mmap\"") }, xml)
        let count = try XCTUnwrap(total.split(separator: "\"").dropFirst(3).first, String(total))
        return try XCTUnwrap(Int(count))
    }
    #endif
}
