/**
 * AgentLoop's own tables: the versioned scripts that create and upgrade them, applied at start, or checked when a
 * DBA or Flyway owns the schema, so that a database of another version stops the start with a message naming what
 * is missing.
 */
package dev.agentloop.internal.trace.schema;
