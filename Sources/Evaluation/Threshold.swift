/// A limit on one metric: a minimum for metrics where higher is better, a maximum otherwise.
public struct Threshold: Sendable, Equatable {
    /// The metric name (see `EvaluationResult.metrics`).
    public var metric: String
    /// The limit.
    public var limit: Double

    /// Creates a threshold; nil when the metric cannot take one.
    public init?(metric: String, limit: Double) {
        guard EvaluationResult.higherIsBetter.contains(metric) || EvaluationResult.lowerIsBetter.contains(metric) else { return nil }
        self.metric = metric
        self.limit = limit
    }

    /// Whether the limit is a minimum.
    public var isMinimum: Bool { EvaluationResult.higherIsBetter.contains(metric) }

    /// Nil when `result` meets the limit; otherwise a short text such as "recall 0.8123 < 0.9000".
    /// An undefined metric fails: a threshold on it can never pass silently.
    public func failure(in result: EvaluationResult) -> String? {
        let limitText = EvaluationResult.format(metric, limit)
        guard let value = result.value(of: metric) else { return "\(metric) n/a (needs \(isMinimum ? ">=" : "<=") \(limitText))" }
        let valueText = EvaluationResult.format(metric, value)
        if isMinimum { return value >= limit ? nil : "\(metric) \(valueText) < \(limitText)" }
        return value <= limit ? nil : "\(metric) \(valueText) > \(limitText)"
    }
}
