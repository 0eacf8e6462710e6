package dev.agentloop.internal.web;

import dev.agentloop.internal.evaluation.DataSetCase;
import dev.agentloop.internal.evaluation.EvaluationRequest;
import dev.agentloop.internal.evaluation.EvaluationView;
import dev.agentloop.internal.evaluation.Evaluations;
import dev.agentloop.internal.evaluation.InvalidEvaluationException;
import dev.agentloop.internal.evaluation.JudgeSpec;
import dev.agentloop.internal.evaluation.ReplayChoices;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Evaluations of an agent's candidate on recorded runs and data sets: start one ({@code 202}, its cases run on the
 * evaluations' own lane), read it case by case, list the agent's, and promote one that passed.
 */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}", produces = "application/json")
class EvaluationController {

  private static final int MAX_LISTED = 200;

  private final Evaluations evaluations;
  private final String basePath;

  EvaluationController(Evaluations evaluations, String basePath) {
    this.evaluations = evaluations;
    this.basePath = basePath;
  }

  @PostMapping(path = "/agents/{key}/evaluations", consumes = "application/json")
  ResponseEntity<EvaluationView> start(@PathVariable String key, @Valid @RequestBody EvaluationBody body) {
    EvaluationView started = evaluations.start(body.request(key));
    return ResponseEntity.accepted().location(URI.create(basePath + "/evaluations/" + started.id())).body(started);
  }

  @GetMapping(path = "/agents/{key}/evaluations")
  List<EvaluationView> ofAgent(@PathVariable String key, @RequestParam(defaultValue = "20") int limit) {
    if (limit < 1 || limit > MAX_LISTED) {
      throw new InvalidParameterException("limit", String.valueOf(limit), "between 1 and " + MAX_LISTED);
    }
    return evaluations.ofAgent(key, limit);
  }

  @GetMapping(path = "/evaluations/{evaluationId}")
  EvaluationView view(@PathVariable String evaluationId) {
    return evaluations.view(evaluationId);
  }

  /** Makes the candidate the agent's version new runs start on; the reason is kept with the promotion. */
  @PostMapping(path = "/evaluations/{evaluationId}/promote")
  EvaluationView promote(@PathVariable String evaluationId, @Valid @RequestBody(required = false) ResumeRequests.Reason body) {
    return evaluations.promote(evaluationId, body == null ? null : body.reason());
  }

  /**
   * {@code POST /api/agents/{key}/evaluations}: the candidate as {@code diagram} (BPMN XML) or {@code version}, and
   * the cases: recorded {@code runs} by id, the agent's {@code recent} newest finished runs, a data set
   * ({@code cases}).
   */
  record EvaluationBody(String diagram, Integer version, List<String> runs, Integer recent, List<DataSetCase> cases,
      ReplayChoices replay, JudgeSpec judge, @Size(max = EvaluationRequest.MAX_REASON_CHARS) String reason) {

    EvaluationRequest request(String agentKey) {
      try {
        return new EvaluationRequest(agentKey, new EvaluationRequest.CandidateSource(diagram, version), runs,
            recent == null ? 0 : recent, cases, replay, judge, reason);
      } catch (IllegalArgumentException e) {
        throw new InvalidEvaluationException(e.getMessage(), e);
      }
    }
  }
}
