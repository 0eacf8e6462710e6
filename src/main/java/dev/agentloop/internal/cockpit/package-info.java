/**
 * The Cockpit plugin's delivery: the plugin SPI registration and the JAX-RS resource that serves its
 * ES modules (the modules themselves are in {@code plugin-webapp/agentloop/app/}). Loaded only where
 * the Camunda webapps are.
 */
package dev.agentloop.internal.cockpit;
