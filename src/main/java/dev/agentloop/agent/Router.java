package dev.agentloop.agent;

import java.util.List;

/** Decides where the loop goes after the trace changed: the next pending tool call, or think. */
class Router {

  Route next(List<Action> pendingActions) {
    return pendingActions.isEmpty() ? Route.THINK : Route.ACT;
  }
}
