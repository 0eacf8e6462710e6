/**
 * The escape route: Failsafe retries, time-outs and circuit breakers around every model and tool
 * call, the classification of errors, loop detection, budgets, and the one mapping of escape
 * conditions to the BPMN errors the agent diagrams catch.
 *
 * <p>Policies compose in one order, outermost first: <b>retry</b> (transient errors only, exponential
 * back-off with jitter) → <b>circuit breaker</b> (one per tool and per model endpoint, shared by all
 * runs of the JVM) → <b>time-out</b> (per attempt) → the call. Every attempt passes the breaker, so an
 * open breaker also ends the retries of a call at once, without calling the tool or the model.
 */
package dev.agentloop.internal.resilience;
