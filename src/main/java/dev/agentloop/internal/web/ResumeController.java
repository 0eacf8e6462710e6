package dev.agentloop.internal.web;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.resume.ResumeResult;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.resume.RunActions;
import dev.agentloop.internal.resume.RunRestarts;
import dev.agentloop.internal.resume.StepEdit;
import dev.agentloop.internal.security.RunAccess;
import jakarta.validation.Valid;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Changing a run's course from outside: edit a step and resume, regenerate the answer, stop, restart
 * a finished run from a step, and what the caller may do of these now. Who may is checked by the
 * services, for every caller (REST, the Cockpit plugin, embedding code).
 */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/runs/{id}", produces = "application/json")
class ResumeController {

  private final ResumeService resume;
  private final RunRestarts restarts;
  private final RunService runs;
  private final RunAccess access;
  private final String basePath;

  ResumeController(ResumeService resume, RunRestarts restarts, RunService runs, RunAccess access, String basePath) {
    this.resume = resume;
    this.restarts = restarts;
    this.runs = runs;
    this.access = access;
    this.basePath = basePath;
  }

  @PostMapping(path = "/steps/{stepId}/edit", consumes = "application/json")
  ResumeResult edit(@PathVariable String id, @PathVariable int stepId, @Valid @RequestBody ResumeRequests.Edit body) {
    readable(id);
    return resume.edit(new StepEdit(id, stepId, body.content(), body.reason(), body.baseVersion(),
        access.currentUser(), Boolean.TRUE.equals(body.replayLaterTurns())));
  }

  @PostMapping(path = "/regenerate")
  ResumeResult regenerate(@PathVariable String id,
      @Valid @RequestBody(required = false) ResumeRequests.Regenerate body) {
    readable(id);
    return body == null ? resume.regenerate(id, access.currentUser(), null)
        : resume.regenerate(id, body.turn(), Boolean.TRUE.equals(body.replayLaterTurns()), access.currentUser(),
            body.reason());
  }

  @PostMapping(path = "/stop", consumes = "application/json")
  RunView stop(@PathVariable String id, @Valid @RequestBody ResumeRequests.Reason body) {
    readable(id);
    resume.stop(id, body.reason(), access.currentUser());
    return runs.view(id);
  }

  @PostMapping(path = "/restart", consumes = "application/json")
  ResponseEntity<RunView> restart(@PathVariable String id, @Valid @RequestBody ResumeRequests.Restart body) {
    readable(id);
    String restarted = restarts.restart(id, body.fromStep(), body.reason(), access.currentUser());
    return ResponseEntity.created(URI.create(basePath + "/runs/" + restarted)).body(runs.view(restarted));
  }

  @GetMapping("/actions")
  RunActions actions(@PathVariable String id) {
    readable(id);
    return resume.actions(id);
  }

  /**
   * Unknown runs and runs the caller may not read are the same 404, before anything else is said about
   * them, so that no answer tells that a run exists.
   */
  private void readable(String id) {
    if (!access.mayRead(id)) {
      throw new UnknownRunException(id);
    }
    runs.requireRun(id);
  }
}
