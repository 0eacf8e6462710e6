/**
 * The adapters of the one port for chat models ({@link dev.agentloop.spi.ChatModel}, in the SPI): the scripted
 * model for demos and tests, OpenAI-compatible endpoints, Anthropic, and the application's own
 * LangChain4j model; what every adapter shares: replies with their stop reason and token counts (the
 * prompt cache's included), error bodies read as their message, and tool schemas adapted for models in one
 * place; and the optional price table that turns tokens into money. No model is chosen by default: the
 * application chooses one ({@code agentloop.llm.provider}) or brings its own.
 */
package dev.agentloop.internal.llm;
