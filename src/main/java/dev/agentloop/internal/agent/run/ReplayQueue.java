package dev.agentloop.internal.agent.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.List;
import java.util.Objects;

/**
 * The questions of later turns that are asked again, in order, after an earlier turn was regenerated
 * with replay: kept in the process variable {@link ReactAgentProcess#REPLAY_QUESTIONS} as JSON, so that
 * a restart or another node finds them. Immutable.
 */
public final class ReplayQueue {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One question to ask again, and who asked it first. */
  public record Question(String question, String askedBy) {

    public Question {
      Objects.requireNonNull(question, "question");
      Objects.requireNonNull(askedBy, "askedBy");
    }
  }

  private ReplayQueue() {}

  public static String write(List<Question> questions) {
    try {
      return JSON.writeValueAsString(questions);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the questions to replay", e);
    }
  }

  /** @param json the variable's value; {@code null} or blank is no question */
  public static List<Question> read(String json) {
    if (json == null || json.isBlank()) {
      return List.of();
    }
    try {
      return JSON.readValue(json, new TypeReference<List<Question>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the variable " + ReactAgentProcess.REPLAY_QUESTIONS.name()
          + " holds no list of questions: " + e.getOriginalMessage(), e);
    }
  }
}
