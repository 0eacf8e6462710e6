package dev.agentloop.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.agent.AgentRuns;
import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.agent.RunView;
import dev.agentloop.review.ReviewTaskView;
import dev.agentloop.review.ReviewTasks;
import dev.agentloop.security.RunAccess;
import dev.agentloop.trace.TraceDeletion;
import dev.agentloop.trace.TraceRetention;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/runs}: start a run, see how it stands, read its trace, act on its open tasks, delete its trace. */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/runs", produces = "application/json")
class RunController {

  private final AgentRuns runs;
  private final ReviewTasks tasks;
  private final RunAccess access;
  private final TraceRetention retention;
  private final String basePath;

  RunController(AgentRuns runs, ReviewTasks tasks, RunAccess access, TraceRetention retention, String basePath) {
    this.runs = runs;
    this.tasks = tasks;
    this.access = access;
    this.retention = retention;
    this.basePath = basePath;
  }

  @PostMapping(consumes = "application/json")
  ResponseEntity<RunView> start(@Valid @RequestBody StartRunRequest request) {
    String agent = request.agent() == null || request.agent().isBlank() ? ReactAgentProcess.KEY : request.agent();
    String runId = runs.start(agent, request.question());
    return ResponseEntity.created(URI.create(basePath + "/runs/" + runId)).body(runs.view(runId));
  }

  /** The most recent runs of an agent that the caller may read, newest first. */
  @GetMapping
  List<RunView> list(@RequestParam(defaultValue = ReactAgentProcess.KEY) String agent,
      @RequestParam(defaultValue = "false") boolean finished, @RequestParam(defaultValue = "50") int limit) {
    if (limit < 1 || limit > 500) {
      throw new InvalidParameterException("limit", String.valueOf(limit), "between 1 and 500");
    }
    return runs.recent(agent, finished, limit).stream().filter(run -> access.mayRead(run.id())).toList();
  }

  @GetMapping("/{id}")
  RunView get(@PathVariable String id) {
    return readable(id);
  }

  @GetMapping("/{id}/trace")
  TraceView trace(@PathVariable String id, @RequestParam(defaultValue = "active") String branches) {
    if (!branches.equals("active") && !branches.equals("all")) {
      throw new InvalidParameterException("branches", branches, "'active' (the path the model sees) or 'all'");
    }
    readable(id);
    boolean all = branches.equals("all");
    return new TraceView(id, branches, runs.trace(id, all).stream().map(StepView::of).toList(), runs.decisions(id));
  }

  /** The run's open user tasks (plan review, a question for a person, ...) with their form data. */
  @GetMapping("/{id}/tasks")
  List<ReviewTaskView> tasks(@PathVariable String id) {
    readable(id);
    return tasks.open(id);
  }

  /** Completes a task with the fields its form would submit, e.g. {@code {"decision": "accept"}}. */
  @PostMapping(path = "/{id}/tasks/{taskId}/complete", consumes = "application/json")
  ResponseEntity<RunView> complete(@PathVariable String id, @PathVariable String taskId,
      @RequestBody Map<String, JsonNode> fields) {
    readable(id);
    tasks.complete(id, taskId, fields);
    return ResponseEntity.ok(runs.view(id));
  }

  /**
   * Deletes a finished run's trace at once (its steps, question and the reasons people gave), for
   * operators; the run keeps a tombstone saying who deleted it, when and why.
   */
  @DeleteMapping("/{id}/trace")
  TraceDeletion deleteTrace(@PathVariable String id, @RequestParam(required = false) String reason) {
    readable(id);
    access.requireDeleteTrace();
    if (reason == null || reason.isBlank()) {
      throw new InvalidParameterException("reason", String.valueOf(reason), "why the trace is deleted, for the audit");
    }
    return retention.deleteTrace(id, access.currentUser(), reason);
  }

  /** The run as the caller may see it; unknown runs are 404, runs the caller may not read 403. */
  private RunView readable(String id) {
    RunView run = runs.view(id);
    access.requireRead(id);
    return run;
  }
}
