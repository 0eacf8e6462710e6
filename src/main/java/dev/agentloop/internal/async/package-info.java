/**
 * What every feature's pools and futures share, below all of them: the thread factory of every
 * thread AgentLoop starts (the application's class loader on each), and the one unwrapping of a
 * failed future's error.
 */
package dev.agentloop.internal.async;
