import NeuralRuntime

/// What the networks (detectors, face mesh, embedder) hold, from the runtime's own counts, for `--stats`.
package enum NetworkBytes {
    /// The peak bytes of activation arenas since the last `resetPeaks`.
    package static var arenaPeak: Int { NetworkMemory.arenas.peak }
    /// The peak bytes of everything the networks allocate (arenas, packed weights, tables).
    package static var totalPeak: Int { NetworkMemory.all.peak }

    /// Starts the peaks again from what is held now.
    package static func resetPeaks() {
        NetworkMemory.arenas.resetPeak()
        NetworkMemory.all.resetPeak()
    }
}
