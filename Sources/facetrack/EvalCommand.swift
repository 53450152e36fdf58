import Evaluation
import FaceTrack
import Foundation

/// `facetrack eval --truth TRUTH.csv --pred TRACKS.csv`: scores face tracks against ground truth.
enum EvalCommand: Command {
    static let name = "eval"
    static let synopsis = "eval --truth T.csv --pred P.csv"
    static let summary = "score face tracks against ground truth"
    static let truth = Option.text("--truth", "FILE", help: "ground-truth CSV")
    static let prediction = Option.text("--pred", "FILE", help: "predicted tracks CSV")
    static let iou = Option<Double>.number("--iou", in: 0.000001...1,
                                           help: "IoU a predicted box needs to match a true one, 0 to 1 (default 0.5)")
    static let json = Flag("--json", help: "print the metrics as JSON (null where undefined) instead of a table")
    static let options = [truth.spec, prediction.spec, iou.spec, OverlayOptions.maskScale.spec, OverlayOptions.maskShape.spec,
                          json.spec, CommonFlags.help.spec]

    static var help: String {
        """
        USAGE: facetrack eval --truth TRUTH.csv --pred TRACKS.csv [--iou X] [--mask-scale X] [--mask-shape S] [--json]

        Scores a tracks CSV (from `facetrack process --csv`) against a truth CSV with the same columns
        (every frame listed; a frame without faces as a row with only frame and time).
        Detection: precision, recall, F1, mean IoU and average precision at the IoU threshold, every
        predicted face counting. Tracking: MOTA, MOTP, IDF1, ID switches, fragmentations, mostly
        tracked / partially tracked / mostly lost (CLEAR MOT and Ristani et al.); predicted faces
        without a track_id are not tracks there: they neither match nor count as false positives.
        Eye error: the mean distance of the two predicted eyes from the true ones over the true eye
        distance, for matched faces where both have eyes.
        Anonymisation: every predicted row is a mask, the one `process --anonymize` draws at
        --mask-scale and --mask-shape (for `--anonymize image:FILE` give --mask-shape box: the
        picture is counted as its whole box, an upper bound where it is transparent). mask_coverage
        is the share of truth faces with at least 80 % of their box masked, exposed_faces those that are not, exposing_frames the frames showing at least one;
        false_mask_share is the share of masked pixels that lie in no truth box (masks are not
        clipped at the right and bottom edges: the CSV gives no frame size).

        OPTIONS:
        \(options.map(\.helpEntry).joined(separator: "\n"))

        EXAMPLE:
          facetrack process samples/zoom.mp4 --csv zoom.csv && facetrack eval --truth samples/zoom.truth.csv --pred zoom.csv
        """
    }

    /// The command: returns the exit status.
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError("eval takes no positional arguments (use --truth and --pred)") }
        guard let truthPath = try arguments.value(truth) else { throw UsageError("eval needs --truth FILE") }
        guard let predictionPath = try arguments.value(prediction) else { throw UsageError("eval needs --pred FILE") }
        let threshold = try arguments.value(iou) ?? 0.5
        let truth = try TrackTable.load(path: truthPath, requireIDs: true)
        let predicted = try TrackTable.load(path: predictionPath)
        let scale = try arguments.value(OverlayOptions.maskScale) ?? OverlayConfiguration.defaultMaskScale
        let shape = try arguments.value(OverlayOptions.maskShape) ?? .ellipse
        let result = try Evaluator(iouThreshold: threshold, maskScale: scale, maskShape: shape)
            .evaluate(truth: truth, prediction: predicted)
        print(arguments.isSet(json) ? result.json() : result.table())
        return 0
    }
}
