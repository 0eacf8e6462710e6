/**
 * What every LangChain4j-based adapter maps the same way: AgentLoop's tools and tool calls as
 * LangChain4j's requests. Provider wire details stay in the adapters' own packages.
 */
package dev.agentloop.llm.langchain4j;
