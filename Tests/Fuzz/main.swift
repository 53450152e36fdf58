import Foundation

// facetrack-fuzz: runs the built `facetrack` on mutated inputs (containers, CSVs, JSON Lines,
// manifests, known-people folders, model and cascade files) and counts crashes (a signal, or a
// trap's "Fatal error"), hangs (past the per-run time limit) and leftovers (an output or a
// `.partial` file where a failed run must leave none). Seeded and deterministic: case N of seed S
// is always the same input and command; the time budget only decides how many cases run.
// Exit 0 when nothing was found, 1 otherwise (each finding is kept under --findings).
//
// Usage: facetrack-fuzz --facetrack PATH [--seed N] [--seconds S | --cases N] [--timeout S]
//                       [--findings DIR] [--verbose]

/// xorshift64*: small, fast, and the same sequence on every machine.
struct Random {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The command line.
struct Settings {
    var facetrack = ""
    var seed: UInt64 = 1
    var seconds = 60.0
    var cases: Int?
    var timeout = 20.0
    var findings: String?
    var verbose = false

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--facetrack": facetrack = iterator.next() ?? ""
            case "--seed": seed = UInt64(iterator.next() ?? "") ?? 1
            case "--seconds": seconds = Double(iterator.next() ?? "") ?? 60
            case "--cases": cases = Int(iterator.next() ?? "")
            case "--timeout": timeout = Double(iterator.next() ?? "") ?? 20
            case "--findings": findings = iterator.next()
            case "--verbose": verbose = true
            default:
                FileHandle.standardError.write(Data("facetrack-fuzz: unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
        guard FileManager.default.isExecutableFile(atPath: facetrack) else {
            FileHandle.standardError.write(Data("facetrack-fuzz: --facetrack PATH (the built tool) is needed\n".utf8))
            exit(2)
        }
    }
}

/// What a run did.
struct Outcome {
    var status: Int32
    var signal: Int32?
    var timedOut: Bool
    var stderr: String
}

/// Runs a program with a time limit (SIGKILL after it), output to files in `folder`.
func run(_ executable: String, _ arguments: [String], in folder: String, timeout: Double) -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    let errPath = folder + "/.fuzz-stderr"
    try? Data().write(to: URL(fileURLWithPath: errPath))
    let errHandle = FileHandle(forWritingAtPath: errPath)
    process.standardError = errHandle
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    do { try process.run() } catch { return Outcome(status: -1, signal: nil, timedOut: false, stderr: "\(error)") }
    let timedOut = done.wait(timeout: .now() + timeout) == .timedOut
    if timedOut {
        kill(process.processIdentifier, SIGKILL)
        done.wait()
    }
    try? errHandle?.close()
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(atPath: errPath)
    let bySignal = process.terminationReason == .uncaughtSignal
    return Outcome(status: process.terminationStatus, signal: bySignal ? process.terminationStatus : nil, timedOut: timedOut,
                   stderr: stderr)
}

/// Runs ffmpeg quietly; stops the fuzzer when a seed cannot be made.
func ffmpeg(_ arguments: [String]) {
    let outcome = run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments, in: FileManager.default.currentDirectoryPath, timeout: 60)
    if outcome.status != 0 {
        FileHandle.standardError.write(Data("facetrack-fuzz: ffmpeg \(arguments.joined(separator: " ")): \(outcome.stderr)\n".utf8))
        exit(2)
    }
}

// MARK: Mutations

/// Numbers that broke readers before (huge times and frames, negative IDs): most replacements use them.
let numericExtremes = ["1e308", "1e300", "1e20", "1e15", "1e12", "1e10", "9000000000", "2e9", "1000000000000", "-1e300", "-1",
                       "-7", "1e-320", "99999999999999999999", "NaN", "inf", "0"]
/// Values that broke readers before: huge, tiny, negative, not numbers, empty, control characters.
let extremes = ["1e308", "1e20", "1e12", "-1e300", "1e-320", "-1", "-7", "0", "99999999999999999999", "9000000000", "2e9",
                "NaN", "nan", "inf", "-inf", "", " ", "\u{0}", "\u{1B}[31m", "\"", "\"\"", "a,b", "\n", "../../x", "0x1p3",
                String(repeating: "9", count: 400), String(repeating: "x", count: 70_000), "ü\u{202E}", "true", "null", "{}", "[]"]

/// Binary mutations: bit flips, random or extreme bytes over a range, truncation, duplicated and
/// inserted chunks, a 32-bit field set to a huge size.
func mutateBinary(_ data: [UInt8], _ random: inout Random) -> [UInt8] {
    var bytes = data
    guard !bytes.isEmpty else { return [UInt8](repeating: 0xFF, count: 64) }
    for _ in 0..<(1 + random.below(4)) {
        switch random.below(7) {
        case 0:
            for _ in 0..<(1 + random.below(16)) { bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8)) }
        case 1:
            let start = random.below(bytes.count), length = min(bytes.count - start, 1 + random.below(64))
            for i in start..<(start + length) { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
        case 2:
            bytes = Array(bytes.prefix(random.below(bytes.count)))
            if bytes.isEmpty { bytes = [0] }
        case 3:
            let start = random.below(bytes.count), length = min(bytes.count - start, 1 + random.below(4096))
            bytes.insert(contentsOf: bytes[start..<(start + length)], at: random.below(bytes.count))
        case 4:
            let at = random.below(bytes.count)
            bytes.insert(contentsOf: (0..<(1 + random.below(256))).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
        case 5:
            let at = random.below(max(1, bytes.count - 4))
            let value: [UInt8] = random.pick([[0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0x80, 0, 0, 0]])
            for (i, b) in value.enumerated() where at + i < bytes.count { bytes[at + i] = b }
        default:
            let start = random.below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(512)))
            if bytes.isEmpty { bytes = [0] }
        }
    }
    return bytes
}

/// Text mutations on lines and comma- or colon-separated fields, with the extreme values above.
func mutateText(_ text: String, _ random: inout Random) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.isEmpty { lines = [""] }
    // Most cases change one value and nothing else, so the reader gets past every other check to
    // the value (a second, unreadable value would stop it first).
    let single = random.chance(60)
    for _ in 0..<(single ? 1 : 1 + random.below(3)) {
        let line = random.below(lines.count)
        switch single ? 0 : random.below(8) {
        case 0, 1, 2:
            // One field (CSV) or one value (JSON) of a data line replaced by an extreme, the first
            // columns (frame, time, track_id) and numbers more often than the rest.
            let row = lines.count > 1 && random.chance(90) ? 1 + random.below(lines.count - 1) : line
            var fields = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let field = random.chance(50) ? random.below(min(3, fields.count)) : random.below(fields.count)
            let value = random.chance(70) ? random.pick(numericExtremes) : random.pick(extremes)
            if let colon = fields[field].firstIndex(of: ":"), random.chance(50) {
                fields[field] = String(fields[field][...colon]) + value
            } else {
                fields[field] = value
            }
            lines[row] = fields.joined(separator: ",")
        case 3: lines.insert(contentsOf: Array(repeating: lines[line], count: 1 + random.below(200)), at: line)
        case 4: lines.remove(at: line); if lines.isEmpty { lines = [""] }
        case 5: lines[line] += random.pick(extremes) + String(repeating: random.pick([",", "\"", "0", "["]), count: random.below(5000))
        case 6: return String(decoding: mutateBinary(Array(lines.joined(separator: "\n").utf8), &random), as: UTF8.self)
        default: lines.swapAt(line, random.below(lines.count))
        }
    }
    return lines.joined(separator: random.chance(10) ? "\r\n" : "\n")
}

// MARK: Seeds and targets

/// The seed files, made once in `folder` with ffmpeg and the tool itself.
struct Seeds {
    let folder: String
    var media: [String: [UInt8]] = [:]
    var tracksCSV = "", truthCSV = "", detectCSV = "", results = "", manifest = "", cascade = ""
    var photo: [UInt8] = []
    var models = ""

    init(folder: String, facetrack: String, repository: String) {
        self.folder = folder
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(folder)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        let source = ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-f", "lavfi", "-i", "sine=d=0.5", "-t", "0.5"]
        ffmpeg(source + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "seed.mp4"])
        ffmpeg(source + ["-c:v", "ffv1", "-c:a", "flac", "seed.mkv"])
        ffmpeg(source + ["-c:v", "mpeg2video", "-c:a", "mp2", "seed.ts"])
        ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.3", "-c:v", "libvpx-vp9", "-deadline", "realtime", "seed.webm"])
        ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.3", "seed.gif"])
        ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64", "-frames:v", "1", "seed.jpg"])
        ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64", "-frames:v", "1", "seed.png"])
        for name in ["mp4", "mkv", "ts", "webm", "gif", "jpg", "png"] {
            media[name] = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: "\(folder)/seed.\(name)"))) ?? Data())
        }
        let header = "frame,time,track_id,x,y,width,height,confidence,left_eye_x,left_eye_y,right_eye_x,right_eye_y,mouth_x,mouth_y,"
            + "has_smile,left_eye_closed,right_eye_closed,roll,yaw,source,person"
        var rows: [String] = []
        for frame in 0..<5 {
            rows.append("\(frame),\(Double(frame) / 10),1,20.00,10.00,30.00,30.00,0.9000,28.00,20.00,42.00,20.00,35.00,32.00,0,0,0,1.0,2.0,detected,ann")
            rows.append("\(frame),\(Double(frame) / 10),2,60.00,12.00,20.00,20.00,0.7000,,,,,,,,,,,,predicted,")
        }
        tracksCSV = ([header] + rows).joined(separator: "\n") + "\n"
        truthCSV = (["frame,time,track_id,x,y,width,height,confidence"]
                    + (0..<5).map { "\($0),\(Double($0) / 10),1,20,10,30,30,1" }).joined(separator: "\n") + "\n"
        detectCSV = "image,frame,time,track_id,x,y,width,height,confidence\nseed.jpg,0,0,,20,10,30,30,0.9\n"
        results = (0..<4).map { i in
            "{\"duration\":0.5,\"faces\":\(i),\"frames\":5,\"path\":\"/in/\(i).mp4\",\"seconds\":0.1,\"status\":\"\(i == 3 ? "skipped" : "done")\",\"tracks\":1}"
        }.joined(separator: "\n") + "\n"
        manifest = """
        {"clips": [{"name": "seed", "clip": "seed.mp4", "truth": "seed.truth.csv",
                    "options": ["--detector", "none"], "iou": 0.5, "thresholds": {"recall": 0}}]}
        """
        cascade = (try? String(contentsOfFile: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml", encoding: .utf8)) ?? ""
        photo = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: repository + "/Tests/IdentityTests/Fixtures/photo_hopper_1.jpg"))) ?? Data())
        models = repository + "/models"
    }
}

/// One fuzz case: files to write, a command, the outputs a failure must not leave.
struct Case {
    var target: String
    var files: [String: [UInt8]] = [:]
    var links: [String: String] = [:]
    var folders: [String] = []
    var arguments: [String] = []
    /// Outputs that must not exist after a non-zero exit.
    var outputs: [String] = []
}

/// Case `index` of the run: the same for the same seed, whatever came before.
func makeCase(_ index: Int, seed: UInt64, seeds: Seeds) -> Case {
    var random = Random(seed: (seed &+ 1) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
    let targets = ["media", "media", "media", "tracks", "truth", "detect", "results", "manifest", "known", "models", "render"]
    var c = Case(target: random.pick(targets))
    let video = ["-o", "out.mp4", "--csv", "out.csv"]
    switch c.target {
    case "media":
        let kind = random.pick(Array(seeds.media.keys).sorted())
        c.target += "-" + kind
        c.files["in.\(kind)"] = mutateBinary(seeds.media[kind]!, &random)
        let still = kind == "jpg" || kind == "png"
        c.arguments = ["process", "in.\(kind)"] + (still ? ["-o", "out.\(kind)", "--csv", "out.csv"] : video)
            + (random.chance(25) ? ["--accuracy", "low"] : ["--detector", "none"]) + ["-q"]
        c.outputs = [still ? "out.\(kind)" : "out.mp4", "out.csv"]
    case "tracks":
        c.files["t.csv"] = Array(mutateText(seeds.tracksCSV, &random).utf8)
        c.arguments = ["report", "t.csv", "-o", "out.html", "-q"] + (random.chance(40) ? ["--video", "\(seeds.folder)/seed.mp4"] : [])
        c.outputs = ["out.html"]
    case "render":
        // A tracks CSV or MOTChallenge text drawn on the seed clip, with or without gaps filled, maybe with edits.
        let mot = "1,1,20,10,30,30,0.9,-1,-1,-1\n3,1,24,10,30,30,0.9,-1,-1,-1\n2,2,60,12,20,20,0.7,-1,-1,-1\n"
        c.files["t.csv"] = Array(mutateText(random.chance(30) ? mot : seeds.tracksCSV, &random).utf8)
        c.links["seed.mp4"] = "\(seeds.folder)/seed.mp4"
        c.arguments = ["render", "seed.mp4", "--tracks", "t.csv", "-o", "out.mp4", "-q"] + (random.chance(40) ? ["--interpolate"] : [])
            + (random.chance(30) ? ["--anonymize", "blur"] : [])
        if random.chance(30) {
            let edits = "{\"format\": \"facetrack-edits\", \"version\": 1, \"edits\": [{\"op\": \"split\", \"track\": 1, "
                + "\"frame\": 2, \"new_track\": 7}, {\"op\": \"mask\", \"track\": 2}, {\"op\": \"rename\", \"track\": 7, \"person\": \"x\"}]}"
            c.files["e.json"] = Array(mutateText(edits, &random).utf8)
            c.arguments += ["--edits", "e.json"]
        }
        c.outputs = ["out.mp4"]
    case "truth":
        c.files["t.csv"] = Array(mutateText(seeds.truthCSV, &random).utf8)
        c.files["p.csv"] = Array(seeds.tracksCSV.utf8)
        c.arguments = random.chance(50) ? ["eval", "--truth", "t.csv", "--pred", "p.csv"] : ["eval", "--truth", "p.csv", "--pred", "t.csv"]
    case "detect":
        c.files["d.csv"] = Array(mutateText(seeds.detectCSV, &random).utf8)
        c.arguments = ["report", "d.csv", "-o", "out.html", "-q"]
        c.outputs = ["out.html"]
    case "results":
        c.files["r.jsonl"] = Array(mutateText(seeds.results, &random).utf8)
        let merge = random.chance(50)
        c.arguments = merge ? ["merge-results", "r.jsonl", "-o", "out.jsonl"] : ["report", "r.jsonl", "-o", "out.html", "-q"]
        // merge-results exits 1 for failed records it merges (by design); damaged lines must leave no -o.
        c.outputs = merge ? [] : ["out.html"]
    case "manifest":
        c.files["m.json"] = Array(mutateText(seeds.manifest, &random).utf8)
        c.files["seed.truth.csv"] = Array(seeds.truthCSV.utf8)
        c.links["seed.mp4"] = "\(seeds.folder)/seed.mp4"
        c.arguments = ["check", "m.json", "--junit", "out.xml"]
    case "known":
        c.folders = ["known"]
        let names = ["ann", "bob", "a\u{1B}[31mb", "x\ny", "..x", String(repeating: "n", count: 200), "dup", "dup"]
        for person in 0..<(1 + random.below(3)) {
            let name = random.pick(names)
            let photo = random.chance(60) ? seeds.photo : mutateBinary(seeds.photo, &random)
            if random.chance(30) {
                c.folders.append("known/\(name)")
                c.files["known/\(name)/\(person).jpg"] = photo
            } else {
                c.files["known/\(name)\(random.pick([".jpg", ".png", ".JPG"]))"] = photo
            }
        }
        if random.chance(15) { c.links["known/loop"] = ".." }
        if random.chance(10) { c.links["known/gone.jpg"] = "nowhere.jpg" }
        c.links["seed.mp4"] = "\(seeds.folder)/seed.mp4"
        c.arguments = ["process", "seed.mp4", "--known", "known", "--csv", "out.csv", "--accuracy", "low", "-q"]
        c.outputs = ["out.csv"]
    default:
        // A models folder with one file damaged (refused by its checksum), or a damaged cascade.
        if random.chance(50) || seeds.cascade.isEmpty {
            c.folders = ["models"]
            let names = ["face_detection_full_range.tflite", "face_detection_short_range.tflite", "centerface.onnx"]
            for name in names { c.links["models/\(name)"] = "\(seeds.models)/\(name)" }
            let damaged = random.pick(names)
            let original = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: "\(seeds.models)/\(damaged)"))) ?? Data())
            c.links["models/\(damaged)"] = nil
            c.files["models/\(damaged)"] = mutateBinary(original, &random)
            c.links["seed.mp4"] = "\(seeds.folder)/seed.mp4"
            c.arguments = ["process", "seed.mp4", "--models", "models", "--csv", "out.csv", "--no-reid", "-q"]
                + (damaged == "centerface.onnx" ? [] : ["--accuracy", "low"] + (damaged.contains("short") ? ["--detector", "blazeface", "--model", "short"] : []))
        } else {
            c.files["c.xml"] = Array(mutateText(seeds.cascade, &random).utf8)
            c.links["seed.mp4"] = "\(seeds.folder)/seed.mp4"
            c.arguments = ["process", "seed.mp4", "--detector", "haar", "--cascade", "c.xml", "--csv", "out.csv", "-q"]
        }
        c.outputs = ["out.csv"]
    }
    return c
}

/// Files in `folder` (recursively) whose names mark an unfinished output.
func partialFiles(in folder: String) -> [String] {
    (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.contains(".partial-") }
}

// MARK: Main

let settings = Settings(Array(CommandLine.arguments.dropFirst()))
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let work = NSTemporaryDirectory() + "facetrack-fuzz-\(getpid())"
try? FileManager.default.createDirectory(atPath: work + "/seeds", withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }
let seeds = Seeds(folder: work + "/seeds", facetrack: settings.facetrack, repository: repository)

var counts: [String: Int] = [:]
var findings: [String] = []
let started = Date()
var index = 0
while settings.cases.map({ index < $0 }) ?? (Date().timeIntervalSince(started) < settings.seconds) {
    let fuzzCase = makeCase(index, seed: settings.seed, seeds: seeds)
    let folder = work + "/case"
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for sub in fuzzCase.folders { try? FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true) }
    for (name, bytes) in fuzzCase.files {
        try? FileManager.default.createDirectory(atPath: ((folder + "/" + name) as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try? Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
    }
    for (name, target) in fuzzCase.links { try? FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: target) }
    let outcome = run(settings.facetrack, fuzzCase.arguments, in: folder, timeout: settings.timeout)
    var problem: String?
    if outcome.timedOut {
        problem = "hang (over \(Int(settings.timeout)) s)"
    } else if let signal = outcome.signal {
        problem = "crash (signal \(signal))"
    } else if outcome.stderr.contains("Fatal error") || outcome.stderr.contains("Backtracing")
        || outcome.stderr.contains("internal error (the program crashed)") || outcome.status > 2 {
        problem = "crash (status \(outcome.status)): \(outcome.stderr.split(separator: "\n").first ?? "")"
    } else {
        let left = (outcome.status == 0 ? [] : fuzzCase.outputs.filter { FileManager.default.fileExists(atPath: folder + "/" + $0) })
            + partialFiles(in: folder)
        if !left.isEmpty { problem = "leftover after exit \(outcome.status): \(left.joined(separator: ", "))" }
    }
    counts[fuzzCase.target, default: 0] += 1
    if let problem {
        let line = "case \(index) (\(fuzzCase.target)): \(problem); facetrack \(fuzzCase.arguments.joined(separator: " "))"
        findings.append(line)
        FileHandle.standardError.write(Data("facetrack-fuzz: \(line)\n".utf8))
        if let keep = settings.findings {
            let destination = "\(keep)/seed\(settings.seed)-case\(index)"
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: destination)
            try? FileManager.default.moveItem(atPath: folder, toPath: destination)
        }
    } else if settings.verbose {
        print("case \(index) (\(fuzzCase.target)): exit \(outcome.status)")
    }
    index += 1
}
let summary = counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
print("facetrack-fuzz: seed \(settings.seed), \(index) cases in \(Int(Date().timeIntervalSince(started))) s (\(summary)): "
      + "\(findings.count) problems")
exit(findings.isEmpty ? 0 : 1)
