import FaceCore
import Synchronization
import Dispatch
import Foundation

/// Runs a `CascadeModel` over a grey image like OpenCV's `CascadeClassifier::detectMultiScale`.
///
/// The image (not the features) is shrunk for each pyramid level with OpenCV's bit-exact bilinear
/// resize; each level gets its integral images; a window is tried every 2 pixels while the level's
/// scale is below 2 and every pixel above, and one extra step is skipped after a window that fails
/// the first stage. Haar windows are normalised by their standard deviation over the window less a
/// one-pixel border, and windows whose standard deviation is 10 or less are rejected, as OpenCV does.
/// The last few window rows of a level that fall outside OpenCV's row stripes are skipped as OpenCV
/// skips them, so the raw windows are exactly OpenCV's. Raw hits are grouped with `RectangleGrouping` (eps 0.2) and clipped to the frame.
///
/// One instance per thread: the pyramid buffers are reused between frames of the same size.
/// `threads` rows of windows are scanned at once with `DispatchQueue.concurrentPerform`.
package final class CascadeClassifier {
    /// The cascade.
    package let model: CascadeModel
    /// How many threads scan a frame (at least 1). Defaults to the active processor count.
    package var threads: Int

    private let compiled: CompiledCascade
    private var levels: [CascadeLevel] = []
    private var levelKey: [Float] = []
    private var levelFrame = (width: -1, height: -1)
    private var rowItems: [RowItem] = []
    private var workerHits: [[PixelRect]] = []

    /// Wraps a loaded model; `threads` nil means every active processor.
    package init(model: CascadeModel, threads: Int? = nil) {
        self.model = model
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        compiled = CompiledCascade(model: model)
    }

    /// Loads the cascade file at `path` (see `CascadeModel.init(contentsOf:)` for the errors).
    package convenience init(contentsOf path: String, threads: Int? = nil) throws {
        self.init(model: try CascadeModel(contentsOf: path), threads: threads)
    }

    /// Detects objects: OpenCV's `detectMultiScale2` with the same parameters. `minSize`/`maxSize`
    /// bound the window size in pixels (0 = no bound; the default maximum is the frame).
    /// Returns an empty array for an empty frame, a frame smaller than the window, a frame of 2^29
    /// pixels or more, or `scaleFactor <= 1`.
    package func detectMultiScale(_ image: GrayImage, scaleFactor: Double = 1.1, minNeighbors: Int = 3,
                                 minSize: (width: Int, height: Int) = (0, 0),
                                 maxSize: (width: Int, height: Int) = (0, 0)) -> [CascadeDetection] {
        let raw = candidates(image, scaleFactor: scaleFactor, minSize: minSize, maxSize: maxSize)
        var grouped = RectangleGrouping.group(raw, minNeighbors: minNeighbors, eps: 0.2)
        grouped = grouped.compactMap { detection in
            // Clip to the frame, as OpenCV does after grouping.
            let r = detection.rect
            let x0 = max(0, r.x), y0 = max(0, r.y)
            let x1 = min(image.width, r.x + r.width), y1 = min(image.height, r.y + r.height)
            guard x1 > x0, y1 > y0 else { return nil }
            return CascadeDetection(rect: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                                    neighbors: detection.neighbors)
        }
        return grouped
    }

    /// The raw (ungrouped) windows that pass every stage, in frame pixels.
    package func candidates(_ image: GrayImage, scaleFactor: Double = 1.1,
                           minSize: (width: Int, height: Int) = (0, 0),
                           maxSize: (width: Int, height: Int) = (0, 0)) -> [PixelRect] {
        // Integral offsets are 32-bit, so frames of half a gigapixel and more are not scanned.
        guard !image.isEmpty, image.width * image.height < 1 << 29, scaleFactor > 1, scaleFactor.isFinite else { return [] }
        let scales = pyramidScales(width: image.width, height: image.height, scaleFactor: scaleFactor,
                                   minSize: minSize, maxSize: maxSize)
        guard !scales.isEmpty else { return [] }
        prepareLevels(scales: scales, width: image.width, height: image.height)
        let workers = max(1, min(threads, levels.count, 64))
        while workerHits.count < workers { workerHits.append([]) }
        for w in 0..<workers { workerHits[w].removeAll(keepingCapacity: true) }

        image.pixels.withUnsafeBufferPointer { frame in
            guard let base = frame.baseAddress else { return }
            let job = ScanJob(levels: levels, rows: rowItems, compiled: compiled, frame: base, frameWidth: image.width)
            if workers == 1 {
                for level in levels { level.build(from: base, frameWidth: image.width) }
                job.scan(worker: 0, of: 1, into: &workerHits[0])
            } else {
                let sink = HitSink(count: workers)
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    job.build(worker: w, of: workers)
                }
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    var hits: [PixelRect] = []
                    job.scan(worker: w, of: workers, into: &hits)
                    sink.store(hits, at: w)
                }
                for w in 0..<workers { workerHits[w] = sink.take(w) }
            }
        }
        return workerHits.prefix(workers).flatMap { $0 }
    }

    /// OpenCV's scale list: factor 1, scaleFactor, scaleFactor², … while the window fits the frame and
    /// `maxSize`; factors whose window is below `minSize` are skipped. Stored as floats; at most 256.
    func pyramidScales(width: Int, height: Int, scaleFactor: Double,
                       minSize: (width: Int, height: Int), maxSize: (width: Int, height: Int)) -> [Float] {
        let maxW = maxSize.width > 0 && maxSize.height > 0 ? maxSize.width : width
        let maxH = maxSize.width > 0 && maxSize.height > 0 ? maxSize.height : height
        var scales: [Float] = []
        var factor = 1.0
        // Bounded, so a scale factor barely above 1 cannot spin or allocate without end: at most
        // 256 levels (a factor of 1.01 covers a 12x size range with them).
        for _ in 0..<10_000 where scales.count < 256 {
            let w = Int((Double(model.windowWidth) * factor).rounded(.toNearestOrEven))
            let h = Int((Double(model.windowHeight) * factor).rounded(.toNearestOrEven))
            if w > maxW || h > maxH || w > width || h > height { break }
            if w >= minSize.width && h >= minSize.height { scales.append(Float(factor)) }
            factor *= scaleFactor
        }
        return scales
    }

    private func prepareLevels(scales: [Float], width: Int, height: Int) {
        guard scales != levelKey || levelFrame != (width, height) else { return }
        levels = scales.map { CascadeLevel(scale: $0, frameWidth: width, frameHeight: height, model: model) }
        levelKey = scales
        levelFrame = (width, height)
        rowItems = []
        // OpenCV splits each level's rows into as many stripes as the first level has 32-pixel
        // columns of windows, each a whole number of steps; rows past the last stripe are never
        // scanned. Replicate that limit so the same windows are tried.
        let stripes = ((levels.first?.workWidth ?? 0) + 31) / 32
        for (index, level) in levels.enumerated() {
            let stripeRows = max((level.workHeight / level.step + stripes - 1) / max(stripes, 1), 1) * level.step
            let rowLimit = min(level.workHeight, stripes * stripeRows)
            var y = 0
            while y < rowLimit {
                rowItems.append(RowItem(level: Int32(index), y: Int32(y)))
                y += level.step
            }
        }
    }
}

/// One row of windows on one level.
struct RowItem {
    var level: Int32
    var y: Int32
}

/// Collects each worker's hits (each worker writes only its own slot).
private final class HitSink: Sendable {
    private let slots: Mutex<[[PixelRect]]>

    init(count: Int) { slots = Mutex(Array(repeating: [], count: count)) }

    func store(_ hits: [PixelRect], at index: Int) {
        slots.withLock { $0[index] = hits }
    }

    func take(_ index: Int) -> [PixelRect] {
        slots.withLock { $0[index] }
    }
}

/// What the workers share for one frame: read-only apart from each level's own buffers.
private struct ScanJob: @unchecked Sendable {
    let levels: [CascadeLevel]
    let rows: [RowItem]
    let compiled: CompiledCascade
    let frame: UnsafePointer<UInt8>
    let frameWidth: Int

    /// Builds levels `worker`, `worker + workers`, … (each level is written by one worker only).
    func build(worker: Int, of workers: Int) {
        var i = worker
        while i < levels.count {
            levels[i].build(from: frame, frameWidth: frameWidth)
            i += workers
        }
    }

    /// Scans rows `worker`, `worker + workers`, … of the interleaved row list.
    func scan(worker: Int, of workers: Int, into hits: inout [PixelRect]) {
        var i = worker
        while i < rows.count {
            let item = rows[i]
            let level = levels[Int(item.level)]
            compiled.scanRow(level: level, y: Int(item.y), into: &hits)
            i += workers
        }
    }
}
