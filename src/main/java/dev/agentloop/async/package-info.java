/**
 * What every feature's pools share, below all of them: the thread factory of every thread AgentLoop
 * starts (the application's class loader on each).
 */
package dev.agentloop.async;
