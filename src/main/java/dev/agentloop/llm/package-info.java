/**
 * One port for chat models ({@link dev.agentloop.llm.ChatModel}) and its adapters: the scripted
 * model for demos and tests, and any OpenAI-compatible endpoint through LangChain4j. No model is chosen
 * by default: the application chooses one ({@code agentloop.llm.provider}) or brings its own.
 */
package dev.agentloop.llm;
