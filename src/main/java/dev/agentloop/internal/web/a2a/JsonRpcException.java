package dev.agentloop.internal.web.a2a;

/** A request the A2A server answers with a JSON-RPC error: its code and words for the caller. */
class JsonRpcException extends RuntimeException {

  private final int code;

  JsonRpcException(int code, String message) {
    super(message);
    this.code = code;
  }

  int code() {
    return code;
  }
}
