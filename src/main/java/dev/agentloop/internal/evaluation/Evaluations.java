package dev.agentloop.internal.evaluation;

import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.security.EvaluationAccess;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one door of evaluations: starts one (everything about it checked before its candidate is deployed under a key
 * of its own and its cases queued on the lane), shows one, and promotes one that passed. Thread-safe.
 */
public class Evaluations {

  private static final Logger LOG = LoggerFactory.getLogger(Evaluations.class);
  /** Who started or promoted an evaluation where no user is signed in (the embedding application's code). */
  static final String APPLICATION = "the application";
  /** An evaluation whose lane said nothing for this long was cut off by its node's stop. */
  private static final Duration STALE = Duration.ofMinutes(1);

  private final EvaluationStore store;
  private final StepStore steps;
  private final CandidateDeployments deployments;
  private final EvaluationAccess access;
  private final EvaluationLane lane;
  private final Judge judge;
  private final EvaluationSettings settings;
  private final TransactionTemplate transaction;

  Evaluations(EvaluationStore store, StepStore steps, CandidateDeployments deployments, EvaluationAccess access,
      EvaluationLane lane, Judge judge, EvaluationSettings settings, TransactionTemplate transaction) {
    this.store = store;
    this.steps = steps;
    this.deployments = deployments;
    this.access = access;
    this.lane = lane;
    this.judge = judge;
    this.settings = settings;
    this.transaction = transaction;
  }

  /**
   * Starts an evaluation: its cases run on the lane, one after the other as it has room.
   *
   * @return the evaluation as it starts, every case queued
   * @throws InvalidEvaluationException when its cases, its judge or its candidate are refused, with the reason
   * @throws UnknownAgentException when the agent is not deployed
   */
  public EvaluationView start(EvaluationRequest asked) {
    String agentKey = asked.agentKey();
    access.requireEvaluate(agentKey);
    if (EvaluationKeys.isCandidate(agentKey) || deployments.latestVersion(agentKey) == 0) {
      throw new UnknownAgentException(agentKey, List.of());
    }
    EvaluationRequest request = asked.withRuns(recordedRuns(asked));
    int count = request.runs().size() + request.cases().size();
    if (count > settings.maxCases()) {
      throw new InvalidEvaluationException("an evaluation may have at most " + settings.maxCases() + " cases"
          + " (agentloop.evaluation.max-cases), this one has " + count + ": split it");
    }
    try {
      judge.requireModel(request.judge());
    } catch (IllegalArgumentException e) {
      throw new InvalidEvaluationException("judge.model: " + e.getMessage(), e);
    }
    CandidateDiagram candidate = CandidateDiagram.of(agentKey, request.candidate().diagram() != null
        ? request.candidate().diagram() : deployments.versionOf(agentKey, request.candidate().version()));
    List<String> problems = access.candidateProblems(agentKey, agentKey + ".bpmn",
        candidate.xml().getBytes(StandardCharsets.UTF_8));
    if (!problems.isEmpty()) {
      throw new InvalidCandidateException("the candidate breaks the rules for your diagrams: "
          + String.join("; ", problems));
    }
    String id = UUID.randomUUID().toString();
    String candidateKey = EvaluationKeys.of(id);
    deployments.deployUnder(candidateKey, candidate);
    EvaluationJson.Choices choices = new EvaluationJson.Choices(request.replay(),
        request.judge() == null ? null : request.judge().orThreshold(settings.judgeThreshold()));
    EvaluationRow row = new EvaluationRow(id, agentKey, candidateKey, request.candidate().version(),
        EvaluationJson.write(choices), EvaluationStatus.QUEUED, null, request.reason(), user(),
        ClockUtil.getCurrentTime().toInstant(), null, null);
    List<CaseRow> cases = CaseRow.queued(id, request);
    store.insert(row, candidate.xml(), cases);
    lane.submit(new CaseRun.Evaluation(id, candidateKey, choices, settings.caseTimeout()), cases);
    LOG.info("evaluation {} of the agent '{}' started by {}: {} cases", id, agentKey, row.createdBy(),
        cases.size());
    return EvaluationView.of(row, cases);
  }

  /** @throws UnknownEvaluationException when there is none of this id */
  public EvaluationView view(String evaluationId) {
    EvaluationRow row = row(evaluationId);
    access.requireEvaluate(row.agentKey());
    return EvaluationView.of(row, store.cases(evaluationId));
  }

  /** The agent's evaluations, newest first, without their cases, with what they came to once they ended. */
  public List<EvaluationView> ofAgent(String agentKey, int limit) {
    access.requireEvaluate(agentKey);
    return store.ofAgent(agentKey, limit).stream().map(EvaluationView::listed).toList();
  }

  /**
   * Makes the evaluated candidate the agent's version that new runs start on: deployed under the agent's key, as the
   * person who promotes it, at most once per evaluation, and only where every case that ran passed.
   *
   * @throws PromotionRefusedException when the evaluation has not passed, or was promoted already
   */
  public EvaluationView promote(String evaluationId, String reason) {
    EvaluationRow row = row(evaluationId);
    access.requireEvaluate(row.agentKey());
    access.requirePromote(row.agentKey());
    Summary summary = Summary.of(store.cases(evaluationId));
    PromotionRule.refusal(row, summary).ifPresent(why -> {
      throw new PromotionRefusedException("the evaluation " + evaluationId + " cannot be promoted: " + why);
    });
    transaction.executeWithoutResult(status -> {
      // claimed first: a second promotion waits for this one and then finds it done
      if (!store.promoted(evaluationId, user(), reason, 0)) {
        throw new PromotionRefusedException("the evaluation " + evaluationId + " was promoted already");
      }
      int version = deployments.promote(row.agentKey(), store.candidateXml(evaluationId), evaluationId);
      store.promotedVersion(evaluationId, version);
      LOG.info("evaluation {} promoted by {}: the agent '{}' now starts its runs on version {}",
          evaluationId, user(), row.agentKey(), version);
    });
    return view(evaluationId);
  }

  /** Marks the evaluations whose node stopped while they ran: their cases stay as far as they got. */
  void interruptStale() {
    for (String id : store.stale(ClockUtil.getCurrentTime().toInstant().minus(STALE))) {
      store.ended(id, EvaluationStatus.INTERRUPTED, EvaluationJson.write(Summary.of(store.cases(id))));
      LOG.warn("AGENTLOOP-802 evaluation {} was cut off when its node stopped; start it anew to finish it", id);
    }
  }

  /** The recorded runs asked for, and the agent's newest finished ones where {@code recent} asks for them. */
  private List<String> recordedRuns(EvaluationRequest request) {
    LinkedHashSet<String> runs = new LinkedHashSet<>(request.runs());
    if (request.recent() > 0) {
      steps.recentRuns(request.agentKey(), true, Math.min(request.recent(), settings.maxCases() + 1)).stream()
          .filter(run -> run.tree().caller() == null).map(RunRecord::runId).forEach(runs::add);
    }
    if (runs.isEmpty() && request.cases().isEmpty()) {
      throw new InvalidEvaluationException("the agent '" + request.agentKey() + "' has no finished runs to evaluate"
          + " on; run it first, or give a data set (cases)");
    }
    for (String runId : runs) {
      Optional<RunRecord> run = steps.findRun(runId);
      if (run.isPresent() && !run.get().agentKey().equals(request.agentKey())) {
        throw new InvalidEvaluationException("the run " + runId + " is no run of the agent '" + request.agentKey()
            + "': evaluate a candidate on its own agent's runs");
      }
      if (run.isPresent() && !run.get().status().isFinished()) {
        throw new InvalidEvaluationException("the run " + runId + " has not finished (" + run.get().status()
            + "); evaluate on finished runs");
      }
    }
    return List.copyOf(runs);
  }

  private EvaluationRow row(String evaluationId) {
    return store.find(evaluationId).orElseThrow(() -> new UnknownEvaluationException(evaluationId));
  }

  private String user() {
    String user = access.currentUser();
    return user == null ? APPLICATION : user;
  }
}
