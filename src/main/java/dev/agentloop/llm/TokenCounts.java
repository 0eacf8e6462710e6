package dev.agentloop.llm;

/**
 * The tokens a provider reported for one model call. Each count is {@code null} where the provider
 * reported none: an endpoint without usage is not a call that cost nothing, and operators are told so.
 *
 * @param prompt the tokens of the request (input)
 * @param completion the tokens of the reply (output), reasoning included where the provider counts it there
 * @param total what the provider reported as the total, or the sum of the two when it reported only those
 */
public record TokenCounts(Long prompt, Long completion, Long total) {

  /** The provider reported nothing. */
  public static final TokenCounts UNREPORTED = new TokenCounts(null, null, null);

  public TokenCounts {
    requireNotNegative(prompt, "prompt");
    requireNotNegative(completion, "completion");
    requireNotNegative(total, "total");
    if (total == null && prompt != null && completion != null) {
      total = prompt + completion;
    }
  }

  /** Counts as LangChain4j's {@code TokenUsage} or a script give them, nulls for what is missing. */
  public static TokenCounts of(Integer prompt, Integer completion, Integer total) {
    return new TokenCounts(prompt == null ? null : prompt.longValue(), completion == null ? null : completion.longValue(),
        total == null ? null : total.longValue());
  }

  public boolean reported() {
    return prompt != null || completion != null || total != null;
  }

  /** The total for budgets and counters: 0 when nothing was reported. */
  public long totalOrZero() {
    return total == null ? 0 : total;
  }

  private static void requireNotNegative(Long count, String name) {
    if (count != null && count < 0) {
      throw new IllegalArgumentException(name + " tokens must not be negative, but were " + count);
    }
  }
}
