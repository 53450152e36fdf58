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
