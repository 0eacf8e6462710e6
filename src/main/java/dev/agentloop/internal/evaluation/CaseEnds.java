package dev.agentloop.internal.evaluation;

import java.util.List;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the lane's cases and evaluations end: a case's checks and verdict stored with its result, a case AgentLoop
 * itself failed on stored as failed (and its run stopped), an evaluation's summary stored once its last case is done,
 * and then its candidate's deployment removed.
 * Thread-safe.
 */
class CaseEnds {

  private static final Logger LOG = LoggerFactory.getLogger(CaseEnds.class);

  private final CasePlayer player;
  private final CaseChecks checks;
  private final EvaluationStore store;
  private final CandidateCleanup cleanup;

  CaseEnds(CasePlayer player, CaseChecks checks, EvaluationStore store, CandidateCleanup cleanup) {
    this.player = player;
    this.checks = checks;
    this.store = store;
    this.cleanup = cleanup;
  }

  CasePlayer player() {
    return player;
  }

  void started(String evaluationId) {
    store.status(evaluationId, EvaluationStatus.RUNNING);
  }

  /** Checks the case whose run ended and stores what it came to. */
  CompletionStage<Boolean> finish(CaseRun run) {
    return run.finish(player, checks).thenApply(outcome -> {
      store.finished(run.evaluationId(), run.caseNo(), run.missing() ? CaseStatus.MISSING : CaseStatus.DONE,
          outcome.verdict(), EvaluationJson.write(outcome.result()));
      return true;
    });
  }

  /** A case AgentLoop failed on: reported as failed, with its run stopped where it still runs. */
  boolean failed(CaseRun run, Throwable failure) {
    String error = "AgentLoop could not play this case: " + failure;
    if (run.runId() != null) {
      try {
        player.stop(run.runId(), "stopped by the evaluation: " + error);
      } catch (RuntimeException e) {
        LOG.debug("the run {} of a failed case was not stopped: {}", run.runId(), e.toString());
      }
    }
    store.finished(run.evaluationId(), run.caseNo(), CaseStatus.DONE, Verdict.FAILED,
        EvaluationJson.write(new CaseResult(null, null, List.of(), List.of(), error, null)));
    return true;
  }

  void evaluationDone(String evaluationId) {
    Summary summary = Summary.of(store.cases(evaluationId));
    store.ended(evaluationId, EvaluationStatus.DONE, EvaluationJson.write(summary));
    LOG.info("evaluation {} done: {} same, {} changed, {} failed, {} missing of {} cases", evaluationId,
        summary.same(), summary.changed(), summary.failed(), summary.missing(), summary.cases());
    // the result is in the evaluation's rows and a promotion deploys the diagram it keeps: the candidate may go
    cleanup.ended(evaluationId);
  }

  void heartbeat(List<String> evaluationIds) {
    if (!evaluationIds.isEmpty()) {
      store.heartbeat(evaluationIds);
    }
  }
}
