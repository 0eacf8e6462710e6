package dev.agentloop.internal.tool;

import dev.agentloop.spi.ToolException;

/**
 * A call of a remote agent that did not finish because the remote agent waits for input: the call's
 * observation says what it asks ({@link RemoteInput#describe}), and the agent loop hands the question to a
 * person. A {@link ToolException}, so it is neither retried nor counted against the tool's breaker: the
 * remote agent answered, it only asked back.
 */
public class InputRequiredException extends ToolException {

  private final transient RemoteInput input;

  public InputRequiredException(RemoteInput input) {
    super(input.describe());
    this.input = input;
  }

  public RemoteInput input() {
    return input;
  }
}
