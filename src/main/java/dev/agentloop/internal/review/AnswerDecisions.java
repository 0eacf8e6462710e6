package dev.agentloop.internal.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.spin.plugin.variable.SpinValues;

/**
 * The decisions the answer review offers, as the options of its select ({@value #OPTIONS}): "accept and ask a
 * follow-up" only where the run can take a next question: its agent holds conversations, and the run was not
 * started by another agent's call (a called run answers its caller once). A completion that asks a follow-up
 * there anyway is refused in the same words.
 */
final class AnswerDecisions {

  static final String OPTIONS = "decisionOptions";

  private static final ObjectMapper JSON = new ObjectMapper();

  private record Option(String label, String value) {}

  private AnswerDecisions() {}

  static void prepare(ReviewTask task, AgentDefinitions definitions) {
    boolean followUps = whyNoFollowUp(task, definitions) == null;
    List<Option> options = new ArrayList<>(List.of(new Option("Accept the answer", "accept")));
    if (followUps) {
      options.add(new Option("Accept and ask a follow-up", "follow_up"));
    }
    options.add(new Option("Regenerate: let the agent answer again", "regenerate"));
    options.add(new Option("Give feedback: the agent continues with it", "feedback"));
    options.add(new Option("Edit a step: the agent continues from it", "edit"));
    try {
      // a JSON list: Tasklist hands it to the form's select as its options
      task.put(OPTIONS, SpinValues.jsonValue(JSON.writeValueAsString(options)).create());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the decisions as options", e);
    }
  }

  /** Why this run takes no follow-up question, in the words of a refusal; {@code null} when it takes one. */
  static String whyNoFollowUp(ReviewTask task, AgentDefinitions definitions) {
    DelegateExecution instance = task.delegate().getExecution().getProcessInstance();
    if (instance.getSuperExecution() != null) {
      return "this run answers a call of another agent, once: accept the answer (its caller goes on with it), or"
          + " regenerate it, give feedback or edit a step";
    }
    if (!definitions.settings(task.processDefinitionId()).conversation().enabled()) {
      return "this agent answers one question per run (conversation=false): accept the answer and start a new run"
          + " with the next question";
    }
    return null;
  }
}
