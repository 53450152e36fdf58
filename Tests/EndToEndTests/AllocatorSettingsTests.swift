import Foundation
import TestSupport
import XCTest

/// `facetrack` sets glibc's mmap and trim thresholds when it starts (`MemoryPolicy`, for the
/// system time of big blocks mapped and zeroed again), unless the user set them. Seen through a
/// preloaded `mallopt` that writes down its calls before passing them on.
final class AllocatorSettingsTests: XCTestCase {
    private static let recorder = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdio.h>
        #include <stdlib.h>
        int mallopt(int parameter, int value) {
            int (*next)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "mallopt");
            const char *path = getenv("MALLOPT_CALLS");
            FILE *log = path ? fopen(path, "a") : NULL;
            if (log) { fprintf(log, "%d %d\\n", parameter, value); fclose(log); }
            return next ? next(parameter, value) : 0;
        }
        """

    func testStartSetsTheThresholdsTheUserLeftAlone() throws {
        let folder = try TemporaryFolder()
        let source = folder.file("recorder.c"), library = folder.file("recorder.so")
        try Self.recorder.write(toFile: source, atomically: true, encoding: .utf8)
        let built = try Tools.run("clang", ["-shared", "-fPIC", "-O1", source, "-o", library, "-ldl"])
        XCTAssertEqual(built.status, 0, built.stderr)

        var runs = 0
        func calls(_ settings: [String]) throws -> String {
            runs += 1
            let log = folder.file("calls-\(runs).txt")
            // Without the caller's own settings, if any; then `settings` ("NAME=value").
            let run = try Tools.run("env", ["-u", "GLIBC_TUNABLES", "-u", "MALLOC_MMAP_THRESHOLD_", "-u", "MALLOC_TRIM_THRESHOLD_",
                                            "LD_PRELOAD=" + library, "MALLOPT_CALLS=" + log] + settings + [Tools.facetrack, "--help"])
            XCTAssertEqual(run.status, 0, run.stderr)
            return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        // M_MMAP_THRESHOLD (-3) 64 MiB, M_TRIM_THRESHOLD (-1) 256 MiB.
        XCTAssertEqual(try calls([]), "-3 67108864\n-1 268435456\n")
        XCTAssertEqual(try calls(["GLIBC_TUNABLES=glibc.malloc.trim_threshold=1048576"]), "-3 67108864\n",
                       "the user's trim threshold stays")
        XCTAssertEqual(try calls(["MALLOC_MMAP_THRESHOLD_=1048576"]), "-1 268435456\n", "the user's mmap threshold stays")
    }
}
