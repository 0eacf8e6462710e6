package dev.agentloop.cluster;

import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.util.Map;
import org.camunda.bpm.model.bpmn.Bpmn;

/**
 * The shipped react-agent with plan and answer accepted automatically, so that runs finish with no
 * person in the loop; the scale-out benchmark's ten identical calls are no loop to escape from. Deployed through one node's engine REST API, as an operator deploys an agent;
 * the other nodes of a cluster find it in the shared database.
 */
public final class UnattendedAgent {

  public static final String KEY = "unattended-agent";

  private UnattendedAgent() {}

  public static void deployThrough(NodeApi api) {
    String xml = Bpmn.convertToString(TestAgent.variant(KEY,
        Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
            AgentSettings.LOOP_MAX_REPEATS, "100", AgentSettings.CONVERSATION, "false")));
    api.deploy(KEY + ".bpmn", xml);
  }
}
