package dev.agentloop.internal.events;

/** This node serves {@code agentloop.events.max-followers} streams already; the client should try again later. */
public class TooManyFollowersException extends RuntimeException {

  public TooManyFollowersException(int limit) {
    super("this node follows " + limit + " runs for clients already (agentloop.events.max-followers): try again"
        + " later, or on another node");
  }
}
