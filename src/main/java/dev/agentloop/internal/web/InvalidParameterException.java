package dev.agentloop.internal.web;

/** A request parameter has a value the API does not accept. */
class InvalidParameterException extends RuntimeException {

  InvalidParameterException(String name, String value, String expected) {
    super("parameter '" + name + "' is '" + value + "' but must be " + expected);
  }

  /** @param message what is wrong, in words */
  InvalidParameterException(String message) {
    super(message);
  }
}
