// Cockpit's configuration, replacing the (empty) default of camunda-webapp-webjar: AgentLoop's
// plugin adds the tabs "Agent trace" (process instance) and "Agent runs" (process definition).
// An application with a config.js of its own keeps that one: add 'scripts/agentloop/plugin.js'
// to its customScripts instead. Paths are relative to app/cockpit/.
export default {
  customScripts: ['scripts/agentloop/plugin.js']
};
