/**
 * The embedded external-task worker: fetches and locks agent tasks, hands them to
 * {@link dev.agentloop.internal.worker.TopicHandler}s with no transaction open, and completes each task
 * together with its trace steps in one short transaction. Locks are short and extended while a task
 * runs, so a dead node's tasks return to the others within one lock duration. Its worker id is leased,
 * so that a restarted node takes back its own tasks at once and two live nodes never share one.
 */
package dev.agentloop.internal.worker;
