package dev.agentloop.internal.resume;

import org.camunda.bpm.engine.BadUserRequestException;

/** An edit or a restart request that cannot be applied as given (bad content, arguments that break the tool's schema, a step that cannot be edited); nothing was changed. */
public class InvalidEditException extends BadUserRequestException {

  public InvalidEditException(String message) {
    super(message);
  }
}
