/**
 * What Camunda's history keeps of agent runs: everything the host's history level keeps, except the
 * activity instances an agent passes once per step, whose record the step store already holds.
 */
package dev.agentloop.internal.history;
