package dev.agentloop.internal.review;

import dev.agentloop.internal.trace.Decision;
import dev.agentloop.internal.trace.Step;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The last change a person made to a run's course, in one sentence for the next form: an edited step,
 * a regenerated answer, feedback, a guide note, a move to another version of the agent. It is the confirmation a reviewer gets of what their
 * edit or regenerate did (Tasklist closes the form without a word), and how a reason given in Cockpit or
 * through the API reaches the reviewer. Empty when nobody changed the run.
 */
final class LastChange {

  /** Decisions that change what the agent does next; accepting or approving does not. */
  private static final Set<String> STEERING = Set.of("regenerate", "feedback", "guide", "retry", "revise",
      Decision.MIGRATE);
  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm 'UTC'")
      .withZone(ZoneOffset.UTC);

  private LastChange() {}

  /**
   * @param path the run's active path
   * @param decisions the decisions on the run's steps, oldest first
   */
  static String of(List<Step> path, List<Decision> decisions) {
    Optional<Step> edit = path.stream().filter(step -> step.supersedes() != null).max(Comparator.comparing(Step::createdAt));
    Optional<Decision> steer = decisions.stream().filter(decision -> STEERING.contains(decision.decision()))
        .reduce((first, second) -> second);
    if (edit.isEmpty() && steer.isEmpty()) {
      return "";
    }
    if (steer.isEmpty() || (edit.isPresent() && !edit.get().createdAt().isBefore(steer.get().decidedAt()))) {
      Step step = edit.get();
      return step.author() + " edited step #" + step.supersedes() + " (" + step.kind() + ") on " + when(step.createdAt())
          + "; the agent went on from the edited step, #" + step.stepNo() + reason(step.reason());
    }
    return of(steer.get());
  }

  /** A decision that changed the run's course, in one sentence. */
  static String of(Decision decision) {
    String then = Decision.MIGRATE.equals(decision.decision())
        ? "; what the agent does next follows that version's prompt, tools and settings" : "";
    return decision.author() + " " + said(decision) + " on " + when(decision.decidedAt()) + then
        + reason(decision.reason());
  }

  private static String said(Decision decision) {
    if (Decision.MIGRATE.equals(decision.decision())) {
      return "moved the run from version " + decision.fromVersion() + " to version " + decision.toVersion()
          + " of its agent";
    }
    return switch (decision.decision()) {
      case "regenerate" -> "had the agent answer again (regenerate)";
      case "feedback" -> "gave the agent feedback on its answer";
      case "guide" -> "guided the stuck agent with a note";
      case "retry" -> "had the stuck agent retry";
      default -> "asked the agent to revise its plan";
    };
  }

  private static String reason(String reason) {
    return reason == null || reason.isBlank() ? "." : ". Reason: " + reason.strip();
  }

  private static String when(Instant instant) {
    return WHEN.format(instant);
  }
}
