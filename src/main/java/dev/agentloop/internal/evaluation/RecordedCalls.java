package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.resilience.CallSignature;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Approvals;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.spi.AgentTool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * The calls observed on a run's active path, by what makes them the same call — the tool and its arguments as the
 * loop detector normalises them ({@link CallSignature}), as they ran (a person's edited arguments, where a person
 * edited them) — each with its observations in the order they came. Immutable.
 */
final class RecordedCalls {

  static final RecordedCalls NONE = new RecordedCalls(Map.of());

  private final Map<String, List<Observation>> bySignature;

  private RecordedCalls(Map<String, List<Observation>> bySignature) {
    this.bySignature = bySignature;
  }

  /** What the tools themselves observed: a tool's result or failure, not a refusal, a rejection or a person's answer. */
  static RecordedCalls ofTools(List<Step> path, ToolRegistry tools) {
    return of(path, tools, (step, observation) -> step.author().equals(observation.tool()));
  }

  /** The observations the predicate keeps. */
  static RecordedCalls of(List<Step> path, ToolRegistry tools, BiPredicate<Step, Observation> kept) {
    Map<String, Action> actions = new HashMap<>();
    Map<String, JsonNode> edited = new HashMap<>();
    Map<String, List<Observation>> bySignature = new LinkedHashMap<>();
    for (Step step : path) {
      if (step.content() instanceof Action action) {
        actions.put(action.callId(), action);
      } else if (step.content() instanceof Approvals approvals) {
        approvals.approvals().stream().filter(approval -> approval.decision() == Approval.Decision.EDIT)
            .forEach(approval -> edited.put(approval.callId(), approval.arguments()));
      } else if (step.content() instanceof Observation observation && observation.ofCall()
          && actions.containsKey(observation.callId()) && kept.test(step, observation)) {
        Action action = actions.get(observation.callId());
        Action asRun = edited.containsKey(action.callId()) ? action.withArguments(edited.get(action.callId())) : action;
        bySignature.computeIfAbsent(signature(asRun, tools), key -> new ArrayList<>()).add(observation);
      }
    }
    return new RecordedCalls(Map.copyOf(bySignature));
  }

  /** What makes a call the same call as another. */
  static String signature(Action call, ToolRegistry tools) {
    boolean ignoreCase = tools.find(call.tool()).map(AgentTool::caseInsensitiveArguments).orElse(false);
    return CallSignature.of(call.tool(), call.hasValidArguments() ? call.arguments() : null, call.rawArguments(),
        ignoreCase);
  }

  /**
   * The observation of the call's {@code n}-th time (from 0); past the recorded ones the last again where
   * {@code repeatLast} (a read gives what it gave), else none.
   */
  Optional<Observation> nth(String signature, int n, boolean repeatLast) {
    List<Observation> observed = bySignature.getOrDefault(signature, List.of());
    if (n < observed.size()) {
      return Optional.of(observed.get(n));
    }
    return repeatLast && !observed.isEmpty() ? Optional.of(observed.get(observed.size() - 1)) : Optional.empty();
  }

  /** How often the call was observed. */
  int count(String signature) {
    return bySignature.getOrDefault(signature, List.of()).size();
  }
}
