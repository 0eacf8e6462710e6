package dev.agentloop.internal.web;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.security.RunAccess;
import jakarta.validation.Valid;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A conversation with an agent: the next question of a run that waits for one, and its close. The
 * question is answered as a new turn of the same run; {@code GET /api/runs/{id}} lists the turns.
 */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/runs/{id}", produces = "application/json")
class ConversationController {

  private final Conversations conversations;
  private final RunService runs;
  private final RunAccess access;

  ConversationController(Conversations conversations, RunService runs, RunAccess access) {
    this.conversations = conversations;
    this.runs = runs;
    this.access = access;
  }

  /** 202: the question is taken; the run plans and answers it as its next turn. */
  @PostMapping(path = "/messages", consumes = "application/json")
  ResponseEntity<RunView> ask(@PathVariable String id, @Valid @RequestBody ConversationRequests.Message body) {
    readable(id);
    conversations.ask(id, body.question(), access.currentUser());
    return ResponseEntity.accepted().body(runs.view(id));
  }

  /** Closes a conversation waiting for its next question; the run ends ANSWERED. */
  @PostMapping(path = "/close")
  RunView close(@PathVariable String id, @Valid @RequestBody(required = false) ResumeRequests.Reason body) {
    readable(id);
    conversations.close(id, body == null ? null : body.reason(), access.currentUser());
    return runs.view(id);
  }

  /** A run the caller may not read answers as an unknown one: nothing about it leaks. */
  private void readable(String id) {
    runs.requireRun(id);
    if (!access.mayRead(id)) {
      throw new UnknownRunException(id);
    }
  }
}
