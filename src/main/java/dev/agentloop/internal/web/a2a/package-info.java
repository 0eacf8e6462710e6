/**
 * Every agent an A2A agent (protocol 1.0, JSON-RPC binding) at {@code <agentloop.a2a.path>/<agent key>}: its card,
 * {@code SendMessage}, {@code SendStreamingMessage}, {@code GetTask}, {@code CancelTask} and {@code SubscribeToTask}.
 * A task is one turn of a run, a context a conversation; a run that waits for a person is {@code TASK_STATE_INPUT_REQUIRED}.
 * Behind the REST API's authentication and rights: a caller sees and starts only the agents it may start.
 */
package dev.agentloop.internal.web.a2a;
