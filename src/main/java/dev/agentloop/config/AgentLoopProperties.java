package dev.agentloop.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every setting of AgentLoop, bound from {@code agentloop.*}. The defaults live in
 * {@code agentloop-defaults.yaml} (shipped in the jar, lowest precedence), so an application that
 * embeds AgentLoop gets them too and overrides only what it needs. Agent-specific settings
 * (prompt, tools, budgets) can be overridden per agent in its BPMN diagram.
 */
@Validated
@ConfigurationProperties("agentloop")
public record AgentLoopProperties(
    @NotNull @Valid Llm llm,
    @NotNull @Valid Worker worker,
    @NotNull @Valid Agent agent,
    @NotNull @Valid Tools tools,
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
      @NotNull @Valid Scripted scripted) {

    public enum Provider { SCRIPTED, OPENAI }

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
      /* empty: host name plus a random suffix, unique per JVM */
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
      @NotNull Duration askHumanTimeout) {

    /** What happens when a reviewer asks for one revision of the plan too many. */
    public enum RevisionsRunOut { ACCEPT, REJECT }
  }

  /**
   * Built-in tools and how tools are run.
   *
   * @param approval per tool name whether a person approves its calls; a tool not named here needs
   *     approval exactly when it has side effects
   * @param remote tools served by remote workers on topic {@code agentloop.tool.<name>}, by name
   */
  public record Tools(
      @NotNull Duration timeout,
      @Positive int maxConcurrent,
      Map<String, Boolean> approval,
      Map<String, @Valid Remote> remote,
      @NotNull @Valid HttpGet httpGet,
      @NotNull @Valid ReadDocument readDocument) {

    public Tools {
      approval = approval == null ? Map.of() : Map.copyOf(approval);
      remote = remote == null ? Map.of() : Map.copyOf(remote);
    }

    /**
     * A tool a remote worker runs: what the model sees of it, and whether its calls change the world.
     *
     * @param parameters JSON Schema (draft 2020-12) of the arguments object, as JSON text
     */
    public record Remote(@NotBlank String description, @NotBlank String parameters, boolean sideEffects) {}

    public record HttpGet(@NotNull List<String> allowedHosts, @Positive int maxBytes, @NotNull Duration timeout) {}

    public record ReadDocument(@NotBlank String folder, @Positive int maxChars) {}
  }

  /**
   * The demo setup of the stand-alone app: users {@code reviewer}, {@code operator} and {@code worker}
   * (password = user id) in the AgentLoop groups, and the Camunda admin user in reviewers and operators.
   * Off by default, so an application that embeds AgentLoop never gets known passwords.
   */
  public record Demo(boolean enabled) {}
}
