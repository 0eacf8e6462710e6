package dev.agentloop.spi;

/** A tool failure with a message written for the model, e.g. "no document named 'x'". */
public class ToolException extends Exception {

  public ToolException(String message) {
    super(message);
  }
}
