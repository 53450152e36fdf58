import MediaIO

/// A run over a stretch of the input (a segment of a split plan): frames keep their numbers in
/// the whole video, and only the segment's own frames go into the output video, which is encoded
/// to be joined with the other segments' parts (closed groups of pictures, no audio: the join
/// copies the original's once).
package struct JobSpan: Sendable, Equatable {
    /// What is read: from a key frame, how many frames (overlaps included).
    package var read: ReadSpan
    /// The frames encoded into the output video: the segment's own.
    package var encoded: Range<Int>

    /// Creates a span.
    package init(read: ReadSpan, encoded: Range<Int>) {
        self.read = read
        self.encoded = encoded
    }
}
