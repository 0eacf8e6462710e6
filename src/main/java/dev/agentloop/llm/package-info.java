/**
 * One port for chat models ({@link dev.agentloop.llm.ChatModel}) and its adapters: the scripted
 * model for demos and tests, and any OpenAI-compatible endpoint through LangChain4j.
 */
package dev.agentloop.llm;
