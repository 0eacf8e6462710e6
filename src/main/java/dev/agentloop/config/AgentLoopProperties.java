package dev.agentloop.config;

import dev.agentloop.agent.RevisionsRunOut;
import dev.agentloop.tool.mcp.McpServerSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every setting of AgentLoop, bound from {@code agentloop.*}. The defaults live in
 * {@code agentloop-defaults.yaml} (shipped in the jar, lowest precedence), so an application that
 * embeds AgentLoop gets them too and overrides only what it needs. Agent-specific settings
 * (prompt, tools, budgets) can be overridden per agent in its BPMN diagram.
 *
 * @param enabled whether AgentLoop is active at all; {@code false}: its auto-configuration adds nothing
 *     to the application and its Cockpit tabs do not show
 */
@Validated
@ConfigurationProperties("agentloop")
public record AgentLoopProperties(
    boolean enabled,
    @NotNull @Valid Api api,
    @NotNull @Valid Deployment deployment,
    @NotNull @Valid Security security,
    @NotNull @Valid Llm llm,
    @NotNull @Valid Worker worker,
    @NotNull @Valid Agent agent,
    @NotNull @Valid Tools tools,
    @NotNull @Valid Resilience resilience,
    @NotNull @Valid Demo demo) {

  /** Which chat model serves the agents. */
  public record Llm(
      @NotNull Provider provider,
      String baseUrl,
      /* only from the environment or a properties source; never written to variables, trace or logs */
      String apiKey,
      String model,
      @NotNull Duration timeout,
      Double temperature,
      @Positive int maxConcurrentCalls,
      @NotNull @Valid Scripted scripted,
      @NotNull @Valid Anthropic anthropic) {

    /** {@code LANGCHAIN4J}: the application's own LangChain4j {@code ChatModel} bean (one, or one marked primary). */
    public enum Provider { SCRIPTED, OPENAI, ANTHROPIC, LANGCHAIN4J }

    /**
     * Anthropic's Messages API ({@code provider: anthropic}); model, key, timeout and temperature are
     * the {@code agentloop.llm.*} ones.
     *
     * @param baseUrl the API's base, to which {@code messages} is appended
     * @param maxTokens the most tokens one reply may have (Anthropic requires a limit)
     * @param thinkingBudgetTokens tokens for extended thinking; 0 turns it off. Must be less than {@code maxTokens}
     */
    public record Anthropic(@NotBlank String baseUrl, @Positive int maxTokens, @PositiveOrZero int thinkingBudgetTokens) {}

    /** The scripted model: a JSON script resource, see {@code llm.scripted.Script}. */
    public record Scripted(@NotBlank String script) {}

    @Override
    public String toString() {
      return "Llm[provider=" + provider + ", baseUrl=" + baseUrl + ", model=" + model + ", apiKey=***]";
    }
  }

  /** The embedded external-task worker that serves the agent topics. */
  public record Worker(
      boolean enabled,
      /* empty: host name and server port, stable across restarts (random suffix with a random port) */
      String workerId,
      @Positive int maxConcurrency,
      @Positive int maxTasksPerFetch,
      @NotNull Duration lockDuration,
      @NotNull Duration idleWait,
      @PositiveOrZero int retries,
      @NotNull Duration retryBackoff,
      @Positive int threads,
      @NotNull Duration shutdownGrace) {}

  /** Defaults for every agent; a diagram overrides them with extension properties. */
  public record Agent(
      @NotBlank String systemPrompt,
      @NotBlank String plannerPrompt,
      @Positive int maxSteps,
      @Positive int contextWindowSteps,
      @Positive int observationPromptChars,
      @Positive int maxStepChars,
      boolean autoAcceptPlan,
      boolean autoAcceptAnswer,
      @PositiveOrZero int maxPlanRevisions,
      @NotNull RevisionsRunOut whenPlanRevisionsRunOut,
      @NotNull Duration askHumanTimeout,
      @Positive int maxModelCalls,
      @Positive int maxToolCalls,
      /* 0: no token budget (providers that report no tokens count none) */
      @PositiveOrZero long maxTokens,
      @NotNull Duration maxRunTime,
      @Positive int loopMaxRepeats,
      @Positive int loopMaxCycles,
      @Positive int loopMaxSameFailures) {}

  /**
   * Built-in tools and how tools are run.
   *
   * @param approval per tool name whether a person approves its calls; a tool not named here needs
   *     approval exactly when it has side effects
   * @param remote tools served by remote workers on topic {@code agentloop.tool.<name>}, by name
   * @param mcp MCP servers by name, whose tools agents call as {@code <server>__<tool>}
   */
  public record Tools(
      @NotNull Duration timeout,
      @Positive int maxConcurrent,
      Map<String, Boolean> approval,
      Map<String, @Valid Remote> remote,
      @NotNull @Valid HttpGet httpGet,
      @NotNull @Valid ReadDocument readDocument,
      @NotNull @Valid Flaky flaky,
      Map<String, McpServerSettings> mcp) {

    public Tools {
      approval = approval == null ? Map.of() : Map.copyOf(approval);
      remote = remote == null ? Map.of() : Map.copyOf(remote);
      // in the order configured: servers start in this order
      mcp = mcp == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(mcp));
    }

    /**
     * A tool a remote worker runs: what the model sees of it, and whether its calls change the world.
     *
     * @param parameters JSON Schema (draft 2020-12) of the arguments object, as JSON text
     */
    public record Remote(@NotBlank String description, @NotBlank String parameters, boolean sideEffects) {}

    public record HttpGet(@NotNull List<String> allowedHosts, @Positive int maxBytes, @NotNull Duration timeout) {}

    public record ReadDocument(@NotBlank String folder, @Positive int maxChars) {}

    /**
     * The flaky test tool: fails at random, for demos and chaos tests. Each call draws once from a
     * random sequence started with {@code seed}: below {@code transientRate} it fails transiently,
     * below the sum with {@code persistentRate} persistently, below the sum with {@code hangRate} it
     * hangs for {@code hang}; otherwise it answers after {@code latency}.
     */
    public record Flaky(
        boolean enabled,
        long seed,
        @DecimalMin("0") @DecimalMax("1") double transientRate,
        @DecimalMin("0") @DecimalMax("1") double persistentRate,
        @DecimalMin("0") @DecimalMax("1") double hangRate,
        @NotNull Duration hang,
        @NotNull Duration latency) {

      @AssertTrue(message = "transient-rate + persistent-rate + hang-rate must be at most 1")
      boolean isRatesAddUp() {
        return transientRate + persistentRate + hangRate <= 1.0;
      }
    }
  }

  /**
   * How model and tool calls are guarded (package {@code dev.agentloop.resilience}): which errors
   * are transient, how they are retried, and when a circuit breaker opens.
   *
   * @param unknownErrors what an error of no known class counts as: retried (transient) or not (persistent)
   * @param transientPatterns regular expressions; an error whose message matches one is transient
   * @param persistentPatterns regular expressions; an error whose message matches one is persistent (checked first)
   * @param toolBreakers breaker settings of single tools, by tool name, instead of {@code toolBreaker}
   * @param finalAnswerAt the share of a budget (model calls, tool calls, tokens) from which the model is asked
   *     for its final answer
   * @param loopWindow how many of the latest tool calls the loop detector looks at
   * @param loopMaxCycleLength the longest cycle of different calls (A, B, C, A, B, C) the loop detector looks for
   */
  public record Resilience(
      @NotNull UnknownErrors unknownErrors,
      @NotNull List<String> transientPatterns,
      @NotNull List<String> persistentPatterns,
      @NotNull @Valid Retry retry,
      @NotNull @Valid Breaker toolBreaker,
      Map<String, @Valid Breaker> toolBreakers,
      @NotNull @Valid Breaker modelBreaker,
      @DecimalMin("0.1") @DecimalMax("1") double finalAnswerAt,
      @Positive int loopWindow,
      @Min(2) int loopMaxCycleLength) {

    public Resilience {
      transientPatterns = transientPatterns == null ? List.of() : List.copyOf(transientPatterns);
      persistentPatterns = persistentPatterns == null ? List.of() : List.copyOf(persistentPatterns);
      toolBreakers = toolBreakers == null ? Map.of() : Map.copyOf(toolBreakers);
    }

    /** What an error that is neither known transient nor known persistent counts as. */
    public enum UnknownErrors { TRANSIENT, PERSISTENT }

    /**
     * Retries of one model or tool call on transient errors, with exponential back-off and jitter.
     *
     * @param maxAttempts attempts per call, the first included (1: no retry)
     * @param jitter each delay varies by up to this share, so that many runs do not retry in step
     * @param sideEffects whether calls of tools with side effects are retried too (an attempt that timed
     *     out may have had its effect)
     */
    public record Retry(
        @Min(1) int maxAttempts,
        @NotNull Duration delay,
        @NotNull Duration maxDelay,
        @DecimalMin("0") @DecimalMax("1") double jitter,
        boolean sideEffects) {

      @AssertTrue(message = "max-delay must not be shorter than delay")
      boolean isDelaysOrdered() {
        return delay == null || maxDelay == null || maxDelay.compareTo(delay) >= 0;
      }
    }

    /**
     * A circuit breaker per tool or per model endpoint: it opens when {@code failureThreshold} of the
     * last {@code failureExecutions} attempts failed (transient or unknown errors, time-outs), rejects
     * calls for {@code delay}, then lets {@code successThreshold} trial calls through; if they all
     * succeed it closes, else it opens again.
     */
    public record Breaker(
        @Positive int failureThreshold,
        @Positive int failureExecutions,
        @NotNull Duration delay,
        @Positive int successThreshold) {

      @AssertTrue(message = "failure-threshold must not exceed failure-executions")
      boolean isThresholdWithinWindow() {
        return failureThreshold <= failureExecutions;
      }
    }
  }

  /**
   * AgentLoop's REST API.
   *
   * @param basePath where it is served, e.g. {@code /api} ({@code /api/runs}, {@code /api/breakers});
   *     AgentLoop's authentication covers this path and nothing else of the application
   */
  public record Api(@NotBlank @Pattern(regexp = "/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]",
      message = "must start with / and not end with /, e.g. /api or /agentloop/api") String basePath) {

    /** AgentLoop's resources under the base path; the application may have paths of its own beside them. */
    public static final List<String> RESOURCES = List.of("runs", "breakers");

    /** Servlet URL patterns of AgentLoop's resources ({@code <base>/runs/*} covers {@code <base>/runs} too). */
    public List<String> urlPatterns() {
      return RESOURCES.stream().map(resource -> basePath + "/" + resource + "/*").toList();
    }

    /** Whether a path (within the servlet context) is one of AgentLoop's, and not the application's. */
    public boolean covers(String path) {
      return path != null && RESOURCES.stream().map(resource -> basePath + "/" + resource)
          .anyMatch(resource -> path.equals(resource) || path.startsWith(resource + "/"));
    }
  }

  /**
   * What AgentLoop deploys itself, from its own jar, as the deployment {@code agentloop} (its forms
   * always, since every agent's review tasks use them).
   *
   * @param defaultAgent whether the shipped default agent {@code react-agent} is deployed too
   */
  public record Deployment(boolean defaultAgent) {}

  /**
   * What AgentLoop sets up for access control.
   *
   * @param groups create AgentLoop's groups {@code agent-reviewers}, {@code agent-operators} and
   *     {@code agent-workers}, their rights on agents and the Tasklist filter "Agent reviews"
   * @param secureEngineRest put Camunda's HTTP Basic authentication and the workers' fence in front of
   *     {@code /engine-rest}; off by default: how a host secures its engine REST API is its decision
   */
  public record Security(boolean groups, boolean secureEngineRest) {}

  /**
   * The demo setup of the stand-alone app: users {@code reviewer}, {@code operator} and {@code worker}
   * (password = user id) in the AgentLoop groups, and the Camunda admin user in reviewers and operators.
   * Off by default, so an application that embeds AgentLoop never gets known passwords.
   */
  public record Demo(boolean enabled) {}
}
