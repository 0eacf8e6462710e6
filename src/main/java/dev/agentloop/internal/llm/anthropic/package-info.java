/**
 * The adapter for Anthropic's Messages API through LangChain4j's Anthropic module: native tool use,
 * extended thinking kept as the reply's reasoning. Its wire types stay inside this package.
 */
package dev.agentloop.internal.llm.anthropic;
