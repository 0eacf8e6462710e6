/**
 * What every LangChain4j-based adapter maps the same way: AgentLoop's tools and tool calls as
 * LangChain4j's requests, and LangChain4j's replies (tool calls, tokens, stop reason) as AgentLoop's.
 * Provider wire details stay in the adapters' own packages.
 */
package dev.agentloop.internal.llm.langchain4j;
