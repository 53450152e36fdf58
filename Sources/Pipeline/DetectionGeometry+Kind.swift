import Detection
import Scheduling

extension DetectorKind {
    /// How the scheduler sizes this detector's pictures; `nil` for no detector.
    var geometry: DetectionGeometry? {
        switch self {
        case .centerface(let settings):
            // Crops of 96 px put a face at about 38 px in the network; tiles have the base pass's
            // width and a height that covers 1080 lines in three rows.
            let side = settings.inputSize
            return DetectionGeometry(baseLongSide: side, cropSide: 96, tileWidth: side,
                                     tileHeight: max(32, (side * 13 / 20 + 31) / 32 * 32), reliableFaceSize: 24,
                                     baseMultiple: 32)
        case .blazeface(let settings):
            // The network letterboxes every picture to its square input; tiles of half-resolution
            // regions keep their count small (BlazeFace is for close faces).
            let side = settings.model.inputSize
            return DetectionGeometry(baseLongSide: side, cropSide: side, tileWidth: side, tileHeight: side,
                                     tileScale: 0.5, reliableFaceSize: 24)
        case .haar:
            // The cascade scans the frame at its own size: no tiles; crops put a face at about
            // 50 px, twice the cascade's window.
            return DetectionGeometry(baseLongSide: nil, cropSide: 128, tileWidth: 1, tileHeight: 1, reliableFaceSize: 24)
        case .none:
            return nil
        }
    }
}
