package dev.agentloop.internal.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One event of a run, in the order the run made them. Each record's components other than {@code cursor} are the
 * event's data as {@code /events} sends it (JSON); {@link #type()} is its SSE event name.
 *
 * <p>Every event but {@link TextDelta} and {@link TextDropped} has a {@link #cursor()}: where a follower that saw it
 * resumes ({@link RunEvents#follow}). Those two have none: they are not stored, and the step the text becomes is
 * sent in full.
 */
public sealed interface RunEvent {

  String runId();

  /** The SSE event name: {@code step}, {@code waiting}, {@code resumed}, {@code failed}, {@code text}, ... */
  String type();

  /** Where to resume after this event; {@code null} for a {@link TextDelta} and a {@link TextDropped}. */
  EventCursor cursor();

  /**
   * A step was written: the same fields as a step of {@code GET /api/runs/{id}/trace}. A step whose
   * {@code supersedes} is set starts a new branch (an edit); the active path is the chain of parents of the newest
   * step whose status is {@code ACTIVE}.
   */
  record StepAppended(@JsonIgnore EventCursor cursor, String runId, int id, Integer parent, StepKind kind, int turn,
      StepStatus status, String author, Instant createdAt, Integer supersedes, String reason, JsonNode content)
      implements RunEvent {

    static StepAppended of(Step step, EventCursor cursor) {
      return new StepAppended(cursor, step.runId(), step.stepNo(), step.parentNo(), step.kind(), step.turn(),
          step.status(), step.author(), step.createdAt(), step.supersedes(), step.reason(), step.json());
    }

    @Override
    public String type() {
      return "step";
    }
  }

  /**
   * The run waits for people: its open user tasks, or {@code follow-up} when a conversation waits for its next
   * question (as {@code waitingFor} of the run view).
   */
  record Waiting(@JsonIgnore EventCursor cursor, String runId, List<String> waitingFor, List<PersonTask> tasks)
      implements RunEvent {

    public Waiting {
      waitingFor = List.copyOf(waitingFor);
      tasks = List.copyOf(tasks);
    }

    @Override
    public String type() {
      return "waiting";
    }
  }

  /**
   * A user task the run waits on.
   *
   * @param taskId the task's id, to complete it ({@code POST /api/runs/{id}/tasks/{taskId}/complete}) or open it in
   *     Tasklist
   * @param key the task's id in the diagram, e.g. {@code reviewPlan}
   */
  record PersonTask(String taskId, String key, String name, Instant createdAt) {}

  /** The run goes on: the people it waited for decided, or an operator resolved its incident. */
  record Resumed(@JsonIgnore EventCursor cursor, String runId) implements RunEvent {
    @Override
    public String type() {
      return "resumed";
    }
  }

  /** The run has an incident: an operator must retry it (Cockpit); {@code resumed} follows when it goes on. */
  record Failed(@JsonIgnore EventCursor cursor, String runId, String incident) implements RunEvent {
    @Override
    public String type() {
      return "failed";
    }
  }

  /**
   * A piece of the text a model writes, as its provider streams it, before the step it becomes is written. Only
   * from the node that makes the call, and only where the model's adapter streams; never resumed.
   *
   * @param purpose {@code plan} or {@code think}: whether the text will be a plan, or a thought or the answer
   * @param turn the model turn the text belongs to
   */
  record TextDelta(String runId, String purpose, int turn, String text) implements RunEvent {

    public TextDelta {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
      return "text";
    }

    @Override
    public EventCursor cursor() {
      return null;
    }
  }

  /**
   * The text sent as {@link TextDelta}s for this purpose and turn since the last {@code step} event will become
   * nothing: the model call failed after it had begun to stream (the stream was cut, the provider sent an error
   * midway, the call timed out or was stopped). A follower throws that text away; a retry streams its text again from
   * its beginning, and the {@code step} events say what became of the turn. Like text deltas, never resumed.
   *
   * @param reason what happened to the call, in words
   */
  record TextDropped(String runId, String purpose, int turn, String reason) implements RunEvent {

    @Override
    public String type() {
      return "text-dropped";
    }

    @Override
    public EventCursor cursor() {
      return null;
    }
  }

  /** The run answered: the final answer step {@code step} was written on the active path. */
  record Answer(@JsonIgnore EventCursor cursor, String runId, int step, int turn, String text) implements RunEvent {
    @Override
    public String type() {
      return "answer";
    }
  }

  /**
   * The run ended; nothing follows. {@code status}, {@code reason}, {@code endedBy} and {@code answer} are those of
   * the run view.
   */
  record Ended(@JsonIgnore EventCursor cursor, String runId, RunStatus status, String reason, String endedBy,
      String answer) implements RunEvent {
    @Override
    public String type() {
      return "ended";
    }
  }
}
