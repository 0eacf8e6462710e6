package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.trace.step.Action;
import java.util.List;
import java.util.Optional;

/**
 * The calls of a turn that other agents answer in child runs. The loop only sorts them out of its calls; how a child
 * run starts, is watched and observed is agent.compose's, which builds on the loop and implements this.
 */
public interface AgentCalls {

  /** The calls of the turn that wait for a child run, in the order the model made them. */
  List<Action> pending(Turn turn, AgentSettings settings);

  /** Why this run may not call agents (too deep below a top-level run), or empty. */
  Optional<String> tooDeep(String runId);
}
