package dev.agentloop.agent;

import dev.agentloop.trace.NewStep;
import java.util.List;

/**
 * What one model reply adds to the trace and where the loop goes next.
 *
 * @param finalAnswer the answer text when the model answered, else {@code null}
 */
record ModelTurn(List<NewStep> steps, List<Action> actions, String finalAnswer) {}
