/**
 * The limits of the model endpoint, set by its provider rather than by threads: calls under way at once,
 * requests and tokens per minute, and the waits the provider asks for ({@code Retry-After}, rate-limit headers).
 * Calls beyond them wait in one queue per endpoint, in the order of their runs, holding no thread.
 */
package dev.agentloop.internal.llm.limits;
