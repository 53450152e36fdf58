import Foundation
import FaceCore

/// A small reader and writer for binary PGM (P5, grey) and PPM (P6, RGB) files with 8-bit samples:
/// the format of the test fixtures and the agreement tool.
package enum PortableAnymap {
    /// Why a PGM/PPM file could not be read; one line naming the file.
    package enum ReadError: Error, CustomStringConvertible {
        /// The file could not be read.
        case unreadable(path: String)
        /// The header or the data is not a binary 8-bit PGM/PPM.
        case malformed(path: String, reason: String)

        /// One line for the user.
        package var description: String {
            switch self {
            case .unreadable(let path): return "image \(path) cannot be read"
            case .malformed(let path, let reason): return "image \(path) is not a binary 8-bit PGM/PPM: \(reason)"
            }
        }
    }

    /// Reads a P5 file as grey, or a P6 file converted to grey like OpenCV's BGR2GRAY.
    package static func readGray(path: String) throws -> GrayImage {
        let (magic, width, height, samples) = try read(path: path)
        if magic == "P5" {
            guard let image = GrayImage(width: width, height: height, pixels: samples) else {
                throw ReadError.malformed(path: path, reason: "size mismatch")
            }
            return image
        }
        return GrayImage(bgra: bgra(width: width, height: height, rgb: samples))
    }

    /// Reads a P6 file (or a P5 file, grey copied to all channels) as a BGRA frame.
    package static func readBGRA(path: String) throws -> BGRAImage {
        let (magic, width, height, samples) = try read(path: path)
        if magic == "P6" { return bgra(width: width, height: height, rgb: samples) }
        let image = BGRAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = samples[y * width + x]
                image.setPixel(x: x, y: y, b: v, g: v, r: v)
            }
        }
        return image
    }

    /// Writes a grey image as a binary PGM.
    package static func write(_ image: GrayImage, to path: String) throws {
        var data = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.pixels)
        try data.write(to: URL(fileURLWithPath: path))
    }

    private static func bgra(width: Int, height: Int, rgb: [UInt8]) -> BGRAImage {
        let image = BGRAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                image.setPixel(x: x, y: y, b: rgb[i + 2], g: rgb[i + 1], r: rgb[i])
            }
        }
        return image
    }

    private static func read(path: String) throws -> (String, Int, Int, [UInt8]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError.unreadable(path: path) }
        let bytes = [UInt8](data)
        var index = 0
        func token() -> String? {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 10 { index += 1 }
                } else if bytes[index] == 32 || (9...13).contains(bytes[index]) {
                    index += 1
                } else { break }
            }
            let start = index
            while index < bytes.count, !(bytes[index] == 32 || (9...13).contains(bytes[index])) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }
        guard let magic = token(), magic == "P5" || magic == "P6" else {
            throw ReadError.malformed(path: path, reason: "magic is not P5 or P6")
        }
        guard let width = token().flatMap({ Int($0) }), let height = token().flatMap({ Int($0) }),
              let maxValue = token().flatMap({ Int($0) }), width >= 0, height >= 0, width < 1 << 16, height < 1 << 16 else {
            throw ReadError.malformed(path: path, reason: "bad size in header")
        }
        guard maxValue == 255 else { throw ReadError.malformed(path: path, reason: "maxval \(maxValue), not 255") }
        index += 1  // the single whitespace byte after maxval
        let count = width * height * (magic == "P6" ? 3 : 1)
        guard bytes.count - index >= count else { throw ReadError.malformed(path: path, reason: "data is truncated") }
        return (magic, width, height, Array(bytes[index..<(index + count)]))
    }
}
