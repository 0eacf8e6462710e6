package dev.agentloop.spi;

/**
 * The tokens a provider reported for one model call. Each count is {@code null} where the provider
 * reported none: an endpoint without usage is not a call that cost nothing, and operators are told so.
 *
 * <p>Prompt tokens are counted the same way for every provider: {@code prompt} is all of them, and
 * {@code cacheRead} and {@code cacheWrite} say how many of those the provider's prompt cache served or
 * stored. OpenAI's {@code prompt_tokens} already include its {@code cached_tokens}; Anthropic's
 * {@code input_tokens} leave out {@code cache_read_input_tokens} and {@code cache_creation_input_tokens},
 * so its adapter adds them in ({@link #ofCachedApart}).
 *
 * @param prompt the tokens of the request (input), cached ones included
 * @param completion the tokens of the reply (output), reasoning included where the provider counts it there
 * @param total what the provider reported as the total, or the sum of the two when it reported only those
 * @param cacheRead of {@code prompt}, the tokens read from the provider's prompt cache; {@code null}: not reported
 * @param cacheWrite of {@code prompt}, the tokens written to the provider's prompt cache (Anthropic);
 *     {@code null}: not reported
 */
public record TokenCounts(Long prompt, Long completion, Long total, Long cacheRead, Long cacheWrite) {

  /** The provider reported nothing. */
  public static final TokenCounts UNREPORTED = new TokenCounts(null, null, null);

  public TokenCounts {
    requireNotNegative(prompt, "prompt");
    requireNotNegative(completion, "completion");
    requireNotNegative(total, "total");
    requireNotNegative(cacheRead, "cacheRead");
    requireNotNegative(cacheWrite, "cacheWrite");
    long cached = (cacheRead == null ? 0 : cacheRead) + (cacheWrite == null ? 0 : cacheWrite);
    if (prompt != null && cached > prompt) {
      throw new IllegalArgumentException("cached prompt tokens (" + cached + ") cannot be more than the prompt's "
          + prompt);
    }
    if (total == null && prompt != null && completion != null) {
      total = prompt + completion;
    }
  }

  /** Counts without anything known about a prompt cache. */
  public TokenCounts(Long prompt, Long completion, Long total) {
    this(prompt, completion, total, null, null);
  }

  /** Counts as LangChain4j's {@code TokenUsage} or a script give them, nulls for what is missing. */
  public static TokenCounts of(Integer prompt, Integer completion, Integer total) {
    return new TokenCounts(asLong(prompt), asLong(completion), asLong(total));
  }

  /**
   * Counts of a provider whose input tokens leave the cached ones out (Anthropic): the prompt is all three
   * together, the total the prompt and the completion.
   *
   * @param uncachedInput the input tokens neither read from nor written to the cache
   */
  public static TokenCounts ofCachedApart(Integer uncachedInput, Integer completion, Integer cacheRead,
      Integer cacheWrite) {
    Long prompt = uncachedInput == null ? null
        : (long) uncachedInput + (cacheRead == null ? 0 : cacheRead) + (cacheWrite == null ? 0 : cacheWrite);
    return new TokenCounts(prompt, asLong(completion), null, asLong(cacheRead), asLong(cacheWrite));
  }

  /** The same counts with what the provider said of its prompt cache. */
  public TokenCounts withCacheRead(Integer read) {
    return new TokenCounts(prompt, completion, total, asLong(read), cacheWrite);
  }

  public boolean reported() {
    return prompt != null || completion != null || total != null;
  }

  /** The total for budgets and counters: 0 when nothing was reported. */
  public long totalOrZero() {
    return total == null ? 0 : total;
  }

  private static Long asLong(Integer count) {
    return count == null ? null : count.longValue();
  }

  private static void requireNotNegative(Long count, String name) {
    if (count != null && count < 0) {
      throw new IllegalArgumentException(name + " tokens must not be negative, but were " + count);
    }
  }
}
