/// Splits a kernel's work (pixels or rows) into contiguous shares for parallel workers.
enum WorkShare {
    /// Share `part` of `parts` of `0..<total`, shares starting on multiples of `multiple`.
    static func range(part: Int, of parts: Int, total: Int, multiple: Int = 1) -> Range<Int> {
        guard parts > 1 else { return 0..<total }
        let size = ((total + parts - 1) / parts + multiple - 1) / multiple * multiple
        let start = min(total, part * size)
        return start..<min(total, start + size)
    }
}
