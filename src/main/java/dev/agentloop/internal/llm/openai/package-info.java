/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, LM Studio) through
 * LangChain4j, with native tool calls. LangChain4j's types stay inside this package.
 */
package dev.agentloop.internal.llm.openai;
