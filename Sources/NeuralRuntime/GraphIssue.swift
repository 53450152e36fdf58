/// A problem found while checking a graph; the network wraps it with the model's name.
struct GraphIssue: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
