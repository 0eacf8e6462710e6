package dev.agentloop.trace;

/**
 * What a step is. The content of each kind is a JSON object:
 * <ul>
 *   <li>{@code PLAN}: {@code {"steps": ["..."]}}</li>
 *   <li>{@code THOUGHT}: {@code {"text": "..."}} — what the model said with its tool calls (may be empty)</li>
 *   <li>{@code ACTION}: {@code {"callId", "tool", "arguments": {...}}}, or {@code "rawArguments"} when the
 *       model's arguments were not JSON; {@code "repeats": n} when the call would repeat the side
 *       effect observed at step n of an abandoned branch (it then waits for approval)</li>
 *   <li>{@code OBSERVATION}: {@code {"callId", "tool", "result"}} or {@code {..., "error"}}, with {@code "failure"}
 *       naming the kind of failure where known (e.g. {@code unavailable}, {@code not_run}, {@code not_offered}) and
 *       {@code "worker"} when a remote worker ran the tool; a reply the model got wrong as a whole is
 *       observed as {@code {"error"}} alone</li>
 *   <li>{@code HUMAN_INPUT}: {@code {"text": "..."}} — a note, feedback or answer of a person</li>
 *   <li>{@code FINAL_ANSWER}: {@code {"text": "..."}}</li>
 * </ul>
 * A model's PLAN, THOUGHT or FINAL_ANSWER may also hold {@code "reasoning"}: what a reasoning model
 * thought before it replied ({@code <think>} blocks, {@code reasoning_content}). It is shown to people,
 * never sent back to the model, and never part of the text, the plan's steps or the answer.
 */
public enum StepKind {
  PLAN, THOUGHT, ACTION, OBSERVATION, HUMAN_INPUT, FINAL_ANSWER;

  /** A model turn begins with its thought, or with its final answer when it has nothing else to say. */
  boolean startsTurn() {
    return this == THOUGHT || this == FINAL_ANSWER;
  }
}
