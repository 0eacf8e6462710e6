/**
 * The scripted model: answers from a JSON script instead of a network call, so AgentLoop runs with
 * no API key and process tests are repeatable. Latency and failures can be injected.
 */
package dev.agentloop.internal.llm.scripted;
