/**
 * The embedded external-task worker: fetches and locks agent tasks, hands them to
 * {@link dev.agentloop.worker.TopicHandler}s with no transaction open, and completes each task
 * together with its trace steps in one short transaction.
 */
package dev.agentloop.worker;
