package dev.agentloop.internal.tool.a2a;

import java.util.Arrays;
import java.util.Optional;

/**
 * The names of the A2A protocol, version 1.0, JSON-RPC binding, as its specification (a2aproject/A2A,
 * {@code specification/a2a.proto} and section 9) spells them: methods in PascalCase, enum values as their
 * ProtoJSON names ({@code TASK_STATE_INPUT_REQUIRED}), fields in camelCase. One place, so that AgentLoop's
 * server and its client cannot drift apart.
 */
public final class A2aProtocol {

  /** The protocol version AgentLoop speaks ({@code Major.Minor}). */
  public static final String VERSION = "1.0";
  /** The header (or query parameter) that names the version of a request; none means 0.3. */
  public static final String VERSION_HEADER = "A2A-Version";
  /** The agent card, relative to an agent's base URL. */
  public static final String CARD_PATH = "/.well-known/agent-card.json";
  /** The binding of {@code AgentInterface.protocolBinding}. */
  public static final String JSONRPC = "JSONRPC";

  public static final String SEND_MESSAGE = "SendMessage";
  public static final String SEND_STREAMING_MESSAGE = "SendStreamingMessage";
  public static final String GET_TASK = "GetTask";
  public static final String CANCEL_TASK = "CancelTask";

  public static final String ROLE_USER = "ROLE_USER";
  public static final String ROLE_AGENT = "ROLE_AGENT";

  /** JSON-RPC's own error codes, and those of A2A (specification section 5.4). */
  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;
  public static final int TASK_NOT_FOUND = -32001;
  public static final int TASK_NOT_CANCELABLE = -32002;
  public static final int PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;
  public static final int UNSUPPORTED_OPERATION = -32004;
  public static final int CONTENT_TYPE_NOT_SUPPORTED = -32005;
  public static final int VERSION_NOT_SUPPORTED = -32009;

  private A2aProtocol() {}

  /** A task's state; on the wire {@code TASK_STATE_} and the name. */
  public enum TaskState {
    SUBMITTED, WORKING, COMPLETED, FAILED, CANCELED, INPUT_REQUIRED, REJECTED, AUTH_REQUIRED;

    /** The ProtoJSON name, e.g. {@code TASK_STATE_INPUT_REQUIRED}. */
    public String wire() {
      return "TASK_STATE_" + name();
    }

    /** Whether the task has ended and takes no more messages. */
    public boolean terminal() {
      return this == COMPLETED || this == FAILED || this == CANCELED || this == REJECTED;
    }

    /** Whether the task waits for its client: a blocking call returns then, as at the end. */
    public boolean interrupted() {
      return this == INPUT_REQUIRED || this == AUTH_REQUIRED;
    }

    /** The state of a wire name; empty for anything else (also {@code TASK_STATE_UNSPECIFIED}). */
    public static Optional<TaskState> fromWire(String wire) {
      return Arrays.stream(values()).filter(state -> state.wire().equals(wire)).findFirst();
    }
  }
}
