package dev.agentloop.trace;

import dev.agentloop.AgentLoopTest;

/** Trace retention on H2, in the context the other tests share. */
@AgentLoopTest
class TraceRetentionTest extends TraceRetentionScenarios {}
