package dev.agentloop.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentloop.agent.Action;
import dev.agentloop.agent.Observation;
import dev.agentloop.agent.Steps;
import dev.agentloop.tool.builtin.AskHumanTool;

/**
 * {@code askHuman}: the questions the model asked with {@code ask_human}, each with an answer
 * field. The answers become the call's observation, authored by the person who gave them.
 */
class AskHumanReview implements Review {

  private final PendingCalls calls;

  AskHumanReview(PendingCalls calls) {
    this.calls = calls;
  }

  @Override
  public void prepare(ReviewTask task) {
    ArrayNode questions = JsonNodeFactory.instance.arrayNode();
    question(task).arguments().path("questions")
        .forEach(question -> questions.addObject().put("question", question.asText()).put("answer", ""));
    task.putJson("questions", questions);
  }

  @Override
  public String decide(ReviewTask task) {
    StringBuilder answers = new StringBuilder();
    boolean answered = false;
    for (JsonNode item : task.json("questions")) {
      String answer = item.path("answer").asText("").strip();
      answered |= !answer.isEmpty();
      answers.append("Q: ").append(item.path("question").asText()).append("\nA: ")
          .append(answer.isEmpty() ? "(no answer)" : answer).append('\n');
    }
    if (!answered) {
      throw new ReviewException("answer at least one of the questions");
    }
    calls.write(task.runId(),
        Steps.observation(Observation.result(question(task), answers.toString().strip()), task.actor()));
    return null;
  }

  private Action question(ReviewTask task) {
    return calls.single(task.runId(), AskHumanTool.NAME);
  }
}
