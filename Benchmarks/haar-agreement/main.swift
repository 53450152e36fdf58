// Runs FaceTrack's cascade detector on PGM images and prints CSV boxes in the same format as
// scripts/reference/opencv_haar.py: image,x,y,w,h,neighbors. Used by scripts/check-haar-agreement.
//
// Usage: haar-agreement --cascade FILE [--scale-factor 1.1] [--min-neighbors 3] [--min-size 0] IMAGE.pgm...
import Detection
import Foundation

var cascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
var scaleFactor = 1.1, minNeighbors = 3, minSize = 0
var images: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--cascade": cascadePath = arguments.next() ?? cascadePath
    case "--scale-factor": scaleFactor = Double(arguments.next() ?? "") ?? scaleFactor
    case "--min-neighbors": minNeighbors = Int(arguments.next() ?? "") ?? minNeighbors
    case "--min-size": minSize = Int(arguments.next() ?? "") ?? minSize
    default: images.append(argument)
    }
}
do {
    let classifier = try CascadeClassifier(contentsOf: cascadePath)
    print("image,x,y,w,h,neighbors")
    for path in images {
        let image = try PortableAnymap.readGray(path: path)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let found = classifier.detectMultiScale(image, scaleFactor: scaleFactor, minNeighbors: minNeighbors,
                                                minSize: (minSize, minSize))
        for d in found {
            print("\(name),\(d.rect.x),\(d.rect.y),\(d.rect.width),\(d.rect.height),\(d.neighbors)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("haar-agreement: \(error)\n".utf8))
    exit(1)
}
