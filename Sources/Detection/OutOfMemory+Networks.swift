import FaceCore
import NeuralRuntime

extension OutOfMemory {
    /// Routes the network runtime's allocation failures to the installed handler too.
    package static func coverNetworks() { NeuralMemory.onFailure { OutOfMemory.fail(message: $0) } }
}
