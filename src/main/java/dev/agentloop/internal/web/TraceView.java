package dev.agentloop.internal.web;

import dev.agentloop.internal.trace.Decision;
import java.util.List;

/**
 * Body of {@code GET /api/runs/{id}/trace}.
 *
 * @param branches {@code active} (the path the model sees, root first) or {@code all}
 * @param decisions what people (or the agent, accepting automatically) decided on steps without
 *     writing one: accepted, regenerated, stopped after — each with the step, author, time and reason
 */
record TraceView(String runId, String branches, List<StepView> steps, List<Decision> decisions) {}
