/// Places activation tensors in one arena so that tensors whose lifetimes overlap never share
/// memory and tensors that are dead reuse it ("greedy by size", as mobile runtimes do).
enum ArenaPlanner {
    /// One tensor to place: its size in floats and the first and last step that touch it.
    struct Request {
        let size: Int
        let first: Int
        let last: Int
    }

    /// Offsets (in floats, multiples of 16) per request, and the arena size.
    static func plan(_ requests: [Request]) -> (offsets: [Int], size: Int) {
        let order = requests.indices.sorted { requests[$0].size > requests[$1].size || (requests[$0].size ==
            requests[$1].size && $0 < $1) }
        var offsets = [Int](repeating: 0, count: requests.count)
        var placed: [Int] = []
        var total = 0
        for index in order {
            let request = requests[index]
            let size = (request.size + 15) / 16 * 16
            // Busy ranges of already placed tensors alive at the same time, sorted by offset.
            let busy = placed.filter { other in
                requests[other].first <= request.last && request.first <= requests[other].last
            }.map { (offsets[$0], offsets[$0] + (requests[$0].size + 15) / 16 * 16) }.sorted { $0.0 < $1.0 }
            var candidate = 0
            for (start, end) in busy {
                if candidate + size <= start { break }
                candidate = max(candidate, end)
            }
            offsets[index] = candidate
            placed.append(index)
            total = max(total, candidate + size)
        }
        return (offsets, total)
    }
}
