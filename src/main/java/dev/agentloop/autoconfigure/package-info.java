/**
 * The auto-configuration the starter names: what a host excludes or orders its own against. Everything it
 * brings lives in {@code dev.agentloop.internal}.
 */
package dev.agentloop.autoconfigure;
