// Times FaceTrack's cascade detector (face detection only, no eyes/smile) on grey frames, single-
// threaded and with 2 threads, and prints one line per frame and thread count:
//   swift <file> <width>x<height> threads=<n> ms=<ms per frame> faces=<count>
// scripts/bench-haar runs it next to OpenCV on the same frames and prints the ratios.
//
// Usage: haar-bench [--cascade FILE] [--scale-factor 1.1] [--min-neighbors 3] [--seconds 3] FRAME.pgm...
import Detection
import Foundation

var cascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
var scaleFactor = 1.1, minNeighbors = 3, seconds = 3.0
var frames: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--cascade": cascadePath = arguments.next() ?? cascadePath
    case "--scale-factor": scaleFactor = Double(arguments.next() ?? "") ?? scaleFactor
    case "--min-neighbors": minNeighbors = Int(arguments.next() ?? "") ?? minNeighbors
    case "--seconds": seconds = Double(arguments.next() ?? "") ?? seconds
    default: frames.append(argument)
    }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

do {
    for path in frames {
        let image = try PortableAnymap.readGray(path: path)
        for threads in [1, 2] {
            let classifier = try CascadeClassifier(contentsOf: cascadePath, threads: threads)
            var faces = classifier.detectMultiScale(image, scaleFactor: scaleFactor, minNeighbors: minNeighbors)  // warm-up
            var runs = 0
            let start = now()
            repeat {
                faces = classifier.detectMultiScale(image, scaleFactor: scaleFactor, minNeighbors: minNeighbors)
                runs += 1
            } while now() - start < seconds / 2 || runs < 3
            let ms = (now() - start) * 1000 / Double(runs)
            print("swift \(image.width)x\(image.height) threads=\(threads) ms=\(String(format: "%.2f", ms)) faces=\(faces.count)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("haar-bench: \(error)\n".utf8))
    exit(1)
}
