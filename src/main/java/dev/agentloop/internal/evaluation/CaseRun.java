package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.review.ReviewTaskView;
import dev.agentloop.internal.review.TaskDecidedException;
import dev.agentloop.internal.trace.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One case on its way: the candidate's run started on the case's question, each of its reviews answered as it opens
 * ({@link ReviewReplies}), a conversation's next questions asked in order and the conversation closed after the last,
 * and a run that cannot finish (a user task no evaluation can answer, an incident, the case's time run out) stopped
 * with the reason kept as the case's error. Used by the lane's thread only.
 */
final class CaseRun {

  /** How a look at the case went: the lane looks again sooner where it moved. */
  enum Progress { WAITING, MOVED, ENDED }

  /** How many looks without a change of the run before its tasks and follow-ups are asked for all the same. */
  private static final int QUIET_LOOKS = 4;

  private final CaseRow row;
  private final Evaluation evaluation;
  private final DataSetCase dataCase;
  private final List<String> marks = new ArrayList<>();
  private CasePlayer.RecordedRun recorded;
  private ReviewReplies replies;
  private List<String> followUps = List.of();
  private int asked;
  private String runId;
  private Instant deadline;
  private int version = -1;
  private int quiet;
  private String error;
  private boolean missing;

  /** The evaluation a case belongs to, as its cases need it. */
  record Evaluation(String id, String candidateKey, EvaluationJson.Choices choices, Duration caseTimeout) {}

  CaseRun(CaseRow row, Evaluation evaluation) {
    this.row = row;
    this.evaluation = evaluation;
    this.dataCase = row.dataCase() == null ? null : EvaluationJson.read(row.dataCase(), DataSetCase.class);
  }

  String evaluationId() {
    return evaluation.id();
  }

  int caseNo() {
    return row.caseNo();
  }

  String runId() {
    return runId;
  }

  Progress advance(CasePlayer player, Instant now) {
    if (missing) {
      return Progress.ENDED;
    }
    if (runId == null) {
      return start(player, now);
    }
    Optional<RunRecord> run = player.run(runId);
    if (run.isEmpty() || run.get().status().isFinished()) {
      error = run.isEmpty() && error == null ? "the candidate's run is gone" : error;
      return Progress.ENDED;
    }
    boolean moved = run.get().head().version() != version;
    version = run.get().head().version();
    if (moved || ++quiet % QUIET_LOOKS == 0) {
      act(player);
    }
    if (error == null && now.isAfter(deadline)) {
      stop(player, "the candidate's run did not finish within " + evaluation.caseTimeout());
    }
    return moved ? Progress.MOVED : Progress.WAITING;
  }

  private Progress start(CasePlayer player, Instant now) {
    String question;
    if (row.recordedRun() != null) {
      recorded = player.recorded(row.recordedRun()).orElse(null);
      if (recorded == null) {
        missing = true;
        error = "the recorded run " + row.recordedRun() + " is gone: it was deleted, its trace was deleted, or it never"
            + " was a run";
        return Progress.ENDED;
      }
      question = recorded.question();
      followUps = recorded.reviews().followUps();
    } else {
      question = dataCase.question();
      followUps = dataCase.followUps();
    }
    replies = new ReviewReplies(recorded == null ? RecordedReviews.NONE : recorded.reviews(),
        evaluation.choices().replay(), player.tools());
    runId = player.start(evaluation.id(), row.caseNo(), evaluation.candidateKey(), question);
    deadline = now.plus(evaluation.caseTimeout());
    return Progress.MOVED;
  }

  private void act(CasePlayer player) {
    List<ReviewTaskView> open = player.openTasks(runId);
    for (ReviewTaskView task : open) {
      answer(player, task);
    }
    if (open.isEmpty() && error == null && player.waitsForFollowUp(runId)) {
      if (asked < followUps.size()) {
        player.ask(runId, followUps.get(asked++));
      } else {
        player.close(runId);
      }
    }
    if (error == null) {
      player.incident(runId).ifPresent(incident -> stop(player, "a step of the candidate failed past its retries: "
          + incident));
    }
  }

  private void answer(CasePlayer player, ReviewTaskView task) {
    ReviewReplies.Reply reply = replies.reply(task);
    if (reply == null) {
      stop(player, "the candidate waits at its user task '" + task.name() + "', which an evaluation cannot answer");
      return;
    }
    try {
      player.submit(runId, task.id(), reply.fields());
      mark(reply.mark());
    } catch (TaskDecidedException decidedMeanwhile) {
      // a timer or the run's end closed the task first: what it decided stands
    } catch (RuntimeException refused) {
      ReviewReplies.Reply anew = replies.anew(task);
      try {
        player.submit(runId, task.id(), anew.fields());
        mark("the recorded decision did not fit the candidate's review (" + refused.getMessage() + "); "
            + anew.mark());
      } catch (RuntimeException again) {
        stop(player, "the candidate's review '" + task.name() + "' took no answer: " + again.getMessage());
      }
    }
  }

  private void stop(CasePlayer player, String why) {
    error = why;
    player.stop(runId, "stopped by the evaluation: " + why);
  }

  private void mark(String mark) {
    if (mark != null) {
      marks.add(mark);
    }
  }

  /** What the case came to, once {@link #advance} said it ended. */
  CompletionStage<CaseChecks.Outcome> finish(CasePlayer player, CaseChecks checks) {
    if (missing) {
      return CompletableFuture.completedFuture(new CaseChecks.Outcome(new CaseResult(null, null, List.of(), List.of(),
          error, null), null));
    }
    if (asked < followUps.size()) {
      marks.add("the candidate took " + asked + " of the " + followUps.size() + " later questions");
    }
    player.forget(runId);
    marks.addAll(CaseMarks.of(player.path(runId)));
    return checks.check(new CaseChecks.Input(recorded != null ? recorded.question() : dataCase.question(),
        recorded == null ? null : recorded.side(), dataCase == null ? Expectations.NONE : dataCase.expect(),
        player.side(runId), marks, error, evaluation.choices().judge()));
  }

  boolean missing() {
    return missing;
  }
}
