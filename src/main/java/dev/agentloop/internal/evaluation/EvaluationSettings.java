package dev.agentloop.internal.evaluation;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How evaluations run ({@code agentloop.evaluation.*}, bound by package {@code config}). Immutable.
 *
 * @param casesAtOnce how many cases of evaluations run at once on this node, the evaluations' own lane: their runs
 *     share the worker and the model with people's runs, so that few at a time keep people's runs going
 * @param pollInterval the longest pause between two looks at a case's run (the lane looks sooner while it moves)
 * @param caseTimeout how long a case's run may take; then it is stopped and the case fails
 * @param maxCases the most cases one evaluation may have (recorded runs and data-set cases together)
 * @param judgeThreshold the judge's score a case needs by default (0 to 1), where the evaluation names none
 * @param retention how long an ended evaluation is kept, with its cases' results; then it goes, unless it was promoted
 *     (a promotion says who put a version live and why, and stays)
 */
public record EvaluationSettings(
    @DefaultValue("2") @Min(1) @Max(64) int casesAtOnce,
    @DefaultValue("PT0.5S") @NotNull Duration pollInterval,
    @DefaultValue("PT15M") @NotNull Duration caseTimeout,
    @DefaultValue("200") @Min(1) @Max(10000) int maxCases,
    @DefaultValue("0.7") @DecimalMin("0") @DecimalMax("1") double judgeThreshold,
    @DefaultValue("P90D") @NotNull Duration retention) {

  public static final EvaluationSettings DEFAULTS = new EvaluationSettings(2, Duration.ofMillis(500),
      Duration.ofMinutes(15), 200, 0.7, Duration.ofDays(90));

  public EvaluationSettings {
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(caseTimeout, "caseTimeout");
    Objects.requireNonNull(retention, "retention");
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be positive, was " + retention);
    }
    if (casesAtOnce < 1) {
      throw new IllegalArgumentException("casesAtOnce must be at least 1, was " + casesAtOnce);
    }
    if (pollInterval.isNegative() || pollInterval.isZero() || caseTimeout.isNegative() || caseTimeout.isZero()) {
      throw new IllegalArgumentException("pollInterval and caseTimeout must be positive, were " + pollInterval + " and "
          + caseTimeout);
    }
    if (maxCases < 1) {
      throw new IllegalArgumentException("maxCases must be at least 1, was " + maxCases);
    }
    if (judgeThreshold < 0 || judgeThreshold > 1) {
      throw new IllegalArgumentException("judgeThreshold must be between 0 and 1, was " + judgeThreshold);
    }
  }
}
