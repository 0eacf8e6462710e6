package dev.agentloop.internal.events;

import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.nio.charset.StandardCharsets;

/**
 * How a run stood when it was read: its stored status and step count, and from the engine what it waits for.
 *
 * @param status the stored status (RUNNING until the run ended)
 * @param tasks its open user tasks
 * @param followUp whether a conversation waits for its next question
 * @param incidentId the id of its incident, {@code null} without one
 */
record RunMoment(RunStatus status, int stepCount, List<RunEvent.PersonTask> tasks, boolean followUp,
    String incidentId, String incident) {

  /** The state of a run that neither waits nor failed nor ended. */
  static final String RUNNING = "R";

  RunMoment {
    tasks = List.copyOf(tasks);
  }

  /** The state as an {@link EventCursor} keeps it. */
  String state() {
    if (status.isFinished()) {
      return "E";
    }
    if (incidentId != null) {
      return "F" + digest(List.of(incidentId));
    }
    if (!tasks.isEmpty() || followUp) {
      List<String> ids = new ArrayList<>(tasks.stream().map(RunEvent.PersonTask::taskId).sorted().toList());
      if (followUp) {
        ids.add(RunView.FOLLOW_UP);
      }
      return "W" + digest(ids);
    }
    return RUNNING;
  }

  /** What {@code waitingFor} of the run view says. */
  List<String> waitingFor() {
    return followUp && tasks.isEmpty() ? List.of(RunView.FOLLOW_UP)
        : tasks.stream().map(RunEvent.PersonTask::key).toList();
  }

  private static String digest(List<String> parts) {
    CRC32 crc = new CRC32();
    crc.update(String.join(",", parts).getBytes(StandardCharsets.UTF_8));
    return String.format("%08x", crc.getValue());
  }
}
