package dev.agentloop.internal.review;

import org.camunda.bpm.engine.BadUserRequestException;

/**
 * What a person submitted cannot be used. Thrown while the task completes, it rolls the completion
 * back: the task stays open with its data and Tasklist (or the API) shows the message.
 */
public class ReviewException extends BadUserRequestException {

  public ReviewException(String message) {
    super(message);
  }
}
