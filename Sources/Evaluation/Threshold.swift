/// A limit on one metric: a minimum for metrics where higher is better, a maximum otherwise.
package struct Threshold: Sendable, Equatable {
    /// The metric name (see `EvaluationResult.metrics`).
    package var metric: String
    /// The limit.
    package var limit: Double

    /// Creates a threshold; nil when the metric cannot take one.
    package init?(metric: String, limit: Double) {
        guard EvaluationResult.higherIsBetter.contains(metric) || EvaluationResult.lowerIsBetter.contains(metric) else { return nil }
        self.metric = metric
        self.limit = limit
    }

    /// Whether the limit is a minimum.
    package var isMinimum: Bool { EvaluationResult.higherIsBetter.contains(metric) }

    /// Nil when `result` meets the limit; otherwise a short text such as "recall 0.8123 < 0.9000".
    /// An undefined metric fails: a threshold on it can never pass silently.
    package func failure(in result: EvaluationResult) -> String? {
        let limitText = EvaluationResult.format(metric, limit)
        guard let value = result.value(of: metric) else { return "\(metric) n/a (needs \(isMinimum ? ">=" : "<=") \(limitText))" }
        let valueText = EvaluationResult.format(metric, value)
        if isMinimum { return value >= limit ? nil : "\(metric) \(valueText) < \(limitText)" }
        return value <= limit ? nil : "\(metric) \(valueText) > \(limitText)"
    }
}
