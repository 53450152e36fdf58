import Batch
import XCTest

final class ShardTests: XCTestCase {
    func testParsesZeroBasedIndexOfCount() throws {
        XCTAssertEqual(try Shard.parse("0/3", environment: [:]), Shard(index: 0, count: 3))
        XCTAssertEqual(try Shard.parse("2/3", environment: [:]), Shard(index: 2, count: 3))
    }

    func testRejectsBadShards() {
        for text in ["3/2", "2/2", "x", "1/0", "-1/2", "1/2/3", "", "/2", "1/", "a/b", "auto/2"] {
            XCTAssertThrowsError(try Shard.parse(text, environment: [:]), text) { error in
                XCTAssertEqual(error as? BatchError, .badShard(text))
            }
        }
    }

    /// Every input lands in exactly one shard, and shards differ by at most one input.
    func testShardsPartitionTheList() throws {
        let items = Array(0..<23)
        for count in 1...7 {
            let slices = (0..<count).map { Shard(index: $0, count: count)!.select(items) }
            XCTAssertEqual(slices.flatMap { $0 }.sorted(), items, "count \(count)")
            let sizes = slices.map(\.count)
            XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 1)
        }
        XCTAssertEqual(Shard(index: 1, count: 3)!.select(Array(0..<8)), [1, 4, 7])
        XCTAssertEqual(Shard(index: 4, count: 5)!.select([1, 2]), [])
    }

    func testAutoReadsSlurmArrayWithMinimumAndStep() throws {
        XCTAssertEqual(try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"]),
                       Shard(index: 2, count: 3))
        // --array=1-3: ids 1..3 are shards 0..2.
        let oneBased = ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"]
        XCTAssertEqual(try Shard.parse("auto", environment: oneBased), Shard(index: 2, count: 3))
        // --array=10-14:2 is ids 10, 12, 14.
        let stepped = ["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "10",
                       "SLURM_ARRAY_TASK_STEP": "2"]
        XCTAssertEqual(try Shard.parse("auto", environment: stepped), Shard(index: 1, count: 3))
        XCTAssertThrowsError(try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3"]))
    }

    func testAutoReadsKubernetesIndexWithGivenCount() throws {
        XCTAssertEqual(try Shard.parse("auto", environment: ["JOB_COMPLETION_INDEX": "4"], countOverride: 5),
                       Shard(index: 4, count: 5))
        XCTAssertThrowsError(try Shard.parse("auto", environment: ["JOB_COMPLETION_INDEX": "5"], countOverride: 5))
        XCTAssertThrowsError(try Shard.parse("auto", environment: ["JOB_COMPLETION_INDEX": "1"])) { error in
            XCTAssertEqual(error as? BatchError, .noShardEnvironment)
        }
        XCTAssertThrowsError(try Shard.parse("auto", environment: [:])) { error in
            XCTAssertEqual(error as? BatchError, .noShardEnvironment)
        }
    }
}
