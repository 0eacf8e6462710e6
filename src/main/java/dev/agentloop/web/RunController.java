package dev.agentloop.web;

import dev.agentloop.agent.AgentRuns;
import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.agent.RunView;
import jakarta.validation.Valid;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/runs}: start a run, see how it stands, read its trace. */
@RestController
@RequestMapping(path = "/api/runs", produces = "application/json")
class RunController {

  private final AgentRuns runs;

  RunController(AgentRuns runs) {
    this.runs = runs;
  }

  @PostMapping(consumes = "application/json")
  ResponseEntity<RunView> start(@Valid @RequestBody StartRunRequest request) {
    String agent = request.agent() == null || request.agent().isBlank() ? ReactAgentProcess.KEY : request.agent();
    String runId = runs.start(agent, request.question());
    return ResponseEntity.created(URI.create("/api/runs/" + runId)).body(runs.view(runId));
  }

  @GetMapping("/{id}")
  RunView get(@PathVariable String id) {
    return runs.view(id);
  }

  @GetMapping("/{id}/trace")
  TraceView trace(@PathVariable String id, @RequestParam(defaultValue = "active") String branches) {
    if (!branches.equals("active") && !branches.equals("all")) {
      throw new InvalidParameterException("branches", branches, "'active' (the path the model sees) or 'all'");
    }
    boolean all = branches.equals("all");
    return new TraceView(id, branches, runs.trace(id, all).stream().map(StepView::of).toList());
  }
}
