package dev.agentloop.internal.trace;

import java.util.List;

/** What an append wrote: the steps, root-side first, and the head they moved the run to. */
public record Appended(RunHead head, List<Step> steps) {

  public Appended {
    steps = List.copyOf(steps);
  }
}
