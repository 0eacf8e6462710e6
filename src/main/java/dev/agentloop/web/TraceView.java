package dev.agentloop.web;

import java.util.List;

/**
 * Body of {@code GET /api/runs/{id}/trace}.
 *
 * @param branches {@code active} (the path the model sees, root first) or {@code all}
 */
record TraceView(String runId, String branches, List<StepView> steps) {}
