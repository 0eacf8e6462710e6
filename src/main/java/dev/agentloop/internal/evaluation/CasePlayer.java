package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.review.ReviewTaskView;
import dev.agentloop.internal.review.ReviewTasks;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepReads;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.runtime.Incident;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the lane does to a case's runs, through the doors every change of a run takes: it reads the recorded run, starts
 * the candidate's run (writing the case's run id in the same transaction, so that any node's worker finds the case of
 * its calls), submits its reviews' forms as {@value CandidateDiagram#EVALUATOR} (the author of what they decide), asks a
 * conversation's next questions or closes it, and stops a run that cannot finish. Thread-safe.
 */
class CasePlayer {

  private final RunService runs;
  private final StepReads store;
  private final DecisionLog decisions;
  private final ReviewTasks tasks;
  private final Conversations conversations;
  private final ResumeService resume;
  private final ProcessEngine engine;
  private final EvaluationStore evaluations;
  private final ToolRegistry tools;
  private final TransactionTemplate transaction;
  private final ReplayedCalls replay;

  CasePlayer(RunService runs, StepReads store, DecisionLog decisions, ReviewTasks tasks, Conversations conversations,
      ResumeService resume, ProcessEngine engine, EvaluationStore evaluations, ToolRegistry tools,
      TransactionTemplate transaction, ReplayedCalls replay) {
    this.runs = runs;
    this.store = store;
    this.decisions = decisions;
    this.tasks = tasks;
    this.conversations = conversations;
    this.resume = resume;
    this.engine = engine;
    this.evaluations = evaluations;
    this.tools = tools;
    this.transaction = transaction;
    this.replay = replay;
  }

  ToolRegistry tools() {
    return tools;
  }

  /** The case's run ended: its calls need no replay any more. */
  void forget(String runId) {
    replay.forget(runId);
  }

  /** The recorded run as the case replays it; empty where it is gone: deleted, its trace deleted, or never a run. */
  Optional<RecordedRun> recorded(String runId) {
    Optional<RunRecord> run = store.findRun(runId);
    if (run.isEmpty() || run.get().question().isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new RecordedRun(run.get().question(), CaseSide.of(runs.view(runId)),
        RecordedReviews.of(store.state(runId), decisions.of(runId), tools)));
  }

  /** Starts the case's candidate run; the case knows its run from the start's own transaction on. */
  String start(String evaluationId, int caseNo, String candidateKey, String question) {
    return transaction.execute(status -> {
      String runId = runs.startCandidate(candidateKey, question);
      evaluations.started(evaluationId, caseNo, runId);
      return runId;
    });
  }

  Optional<RunRecord> run(String runId) {
    return store.findRun(runId);
  }

  List<ReviewTaskView> openTasks(String runId) {
    return tasks.open(runId);
  }

  /** Submits a review's form as the evaluation, which no person's rights stand in for. */
  void submit(String runId, String taskId, Map<String, JsonNode> fields) {
    engine.getIdentityService().setAuthentication(CandidateDiagram.EVALUATOR, List.of());
    try {
      ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired()
          .execute(context -> context.runWithoutAuthorization(() -> {
            tasks.complete(runId, taskId, fields);
            return null;
          }));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }

  boolean waitsForFollowUp(String runId) {
    return runs.waitsForFollowUp(runId);
  }

  void ask(String runId, String question) {
    conversations.ask(runId, question, CandidateDiagram.EVALUATOR);
  }

  void close(String runId) {
    conversations.close(runId, "the case has no more questions", CandidateDiagram.EVALUATOR);
  }

  /** The message of an incident of the run (a step that failed past its retries), or empty. */
  Optional<String> incident(String runId) {
    return engine.getRuntimeService().createIncidentQuery().processInstanceId(runId).list().stream()
        .map(Incident::getIncidentMessage).findFirst().map(message -> message == null ? "an incident" : message);
  }

  /** Stops a run that cannot finish; one that ended meanwhile stays as it ended. */
  void stop(String runId, String reason) {
    try {
      resume.stop(runId, reason, CandidateDiagram.EVALUATOR);
    } catch (ProcessEngineException ended) {
      if (run(runId).map(run -> !run.status().isFinished()).orElse(false)) {
        throw ended;
      }
    }
  }

  CaseSide side(String runId) {
    return CaseSide.of(runs.view(runId));
  }

  List<Step> path(String runId) {
    return store.activePath(runId);
  }

  /** A recorded run as a case replays it: its question, what it came to, and what people decided in it. */
  record RecordedRun(String question, CaseSide side, RecordedReviews reviews) {}
}
