package dev.agentloop.internal.web;

/** The step exists but no prompt is stored for it: it was not written by a model call, or not here. */
class NoPromptException extends RuntimeException {

  NoPromptException(String message) {
    super(message);
  }
}
