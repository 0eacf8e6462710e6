package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.agent.EvaluationKeys;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.repository.Deployment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what an evaluation deployed once nothing needs it: the candidate's deployment when the evaluation ends (a
 * promotion deploys the candidate's diagram as the evaluation keeps it, not this deployment), and in a sweep the
 * candidates of evaluations that ended or are gone, and the evaluations older than the retention. A deployment is
 * removed without cascading: should a candidate run still be under way, the engine refuses, and the deployment stays
 * until a later sweep finds its runs ended. The candidate runs' history and traces stay (they go with Camunda's
 * history), and so does every evaluation's result, which its own rows hold. Thread-safe.
 */
class CandidateCleanup {

  private static final Logger LOG = LoggerFactory.getLogger(CandidateCleanup.class);
  /**
   * A candidate is deployed a moment before its evaluation's row is written: one younger than this without a row is
   * an evaluation starting, maybe on another node, and is left alone.
   */
  private static final Duration STARTING = Duration.ofMinutes(10);

  private final ProcessEngine engine;
  private final EvaluationStore store;
  private final Duration retention;

  CandidateCleanup(ProcessEngine engine, EvaluationStore store, Duration retention) {
    this.engine = engine;
    this.store = store;
    this.retention = retention;
  }

  /** The evaluation ended: its candidate's deployment goes. */
  void ended(String evaluationId) {
    removeCandidate(EvaluationKeys.of(evaluationId));
  }

  /**
   * Removes the evaluations past the retention (but promoted ones), then every candidate deployment whose evaluation
   * ended or is gone.
   *
   * @return how many candidate deployments were removed
   */
  int sweep() {
    Instant before = ClockUtil.getCurrentTime().toInstant().minus(retention);
    int expired = store.deleteEndedBefore(before);
    if (expired > 0) {
      LOG.info("{} evaluations ended before {} went (agentloop.evaluation.retention)", expired, before);
    }
    int removed = 0;
    Instant starting = ClockUtil.getCurrentTime().toInstant().minus(STARTING);
    for (Deployment deployment : candidateDeployments()) {
      Optional<EvaluationRow> evaluation = store.findByCandidateKey(deployment.getName());
      boolean gone = evaluation.isEmpty() && deployment.getDeploymentTime().toInstant().isBefore(starting);
      if (gone || evaluation.isPresent() && evaluation.get().endedAt() != null) {
        removed += remove(deployment) ? 1 : 0;
      }
    }
    return removed;
  }

  private void removeCandidate(String candidateKey) {
    repository().createDeploymentQuery().deploymentSource(CandidateDeployments.SOURCE).deploymentName(candidateKey)
        .list().forEach(this::remove);
  }

  private List<Deployment> candidateDeployments() {
    return repository().createDeploymentQuery().deploymentSource(CandidateDeployments.SOURCE).list().stream()
        .filter(deployment -> EvaluationKeys.isCandidate(deployment.getName())).toList();
  }

  private boolean remove(Deployment deployment) {
    try {
      // never cascading: a run still under way makes the engine refuse, and nothing of it is touched
      repository().deleteDeployment(deployment.getId(), false, true, true);
      LOG.debug("the candidate deployment {} ({}) was removed", deployment.getId(), deployment.getName());
      return true;
    } catch (ProcessEngineException e) {
      LOG.warn("AGENTLOOP-045 the candidate deployment {} ({}) was not removed: {}; it is tried again at the next"
          + " sweep (agentloop.evaluation.retention): if a candidate run hangs, stop it in Cockpit", deployment.getId(),
          deployment.getName(), e.getMessage());
      return false;
    }
  }

  private RepositoryService repository() {
    return engine.getRepositoryService();
  }
}
