import NeuralKernels

/// SHA-256 (FIPS 180-4), to check model files against the hashes `scripts/setup` verifies.
/// Written here because the project takes no outside packages and Linux has no CryptoKit; blocks
/// go through the CPU's SHA extensions where it has them (NeuralKernels' sha256.c).
struct SHA256 {
    private static let k: [UInt32] = withUnsafeBytes(of: nk_sha256_round_constants) { Array($0.bindMemory(to: UInt32.self)) }

    /// The digest of `bytes` as 64 lowercase hex digits.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
    }

    /// Whether blocks are compressed with the CPU's SHA extensions (`nk_sha256_blocks`).
    static let accelerated = nk_sha256_supported() != 0

    /// The digest of the bytes in `bytes` (a mapped model file) as 64 lowercase hex digits; with
    /// `accelerated` false, in Swift whatever the CPU.
    static func hex(_ bytes: UnsafeRawBufferPointer, accelerated: Bool = SHA256.accelerated) -> String {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var tail = Array(bytes[(bytes.count / 64 * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 64)
        // Raw pointers in the loop: a model file is 20 MB, and array bounds and exclusivity checks
        // on every word tripled the time of the check at load.
        h.withUnsafeMutableBufferPointer { h in
            w.withUnsafeMutableBufferPointer { w in
                k.withUnsafeBufferPointer { k in
                    tail.withUnsafeBytes { tail in
                        for blocks in [bytes, tail] where blocks.count >= 64 {
                            let base = blocks.baseAddress!
                            if accelerated {
                                nk_sha256_blocks(h.baseAddress!, base.assumingMemoryBound(to: UInt8.self), blocks.count / 64)
                                continue
                            }
                            for offset in stride(from: 0, to: blocks.count / 64 * 64, by: 64) {
                                compress(base + offset, state: h.baseAddress!, w: w.baseAddress!, k: k.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for word in h {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int((word >> UInt32(shift)) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One 64-byte block into the eight state words.
    private static func compress(_ block: UnsafeRawPointer, state h: UnsafeMutablePointer<UInt32>,
                                 w: UnsafeMutablePointer<UInt32>, k: UnsafePointer<UInt32>) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
