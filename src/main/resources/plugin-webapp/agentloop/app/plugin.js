// AgentLoop's Cockpit plugin (Camunda 7.24 frontend plugin API): plain ES modules, no build step.
// Camunda's plugin SPI delivers it (dev.agentloop.internal.cockpit.AgentLoopCockpitPlugin): Cockpit imports
// this module and loads plugin.css next to it. Everything goes through AgentLoop's REST API as the
// logged-in Cockpit user; the API decides what that user may do.
import settings from './settings.js';
import traceTab from './trace-tab.js';
import runsTab from './runs-tab.js';
import runPage from './run-page.js';
import versionsTab from './versions-tab.js';
import evaluationsTab from './evaluations-tab.js';

// agentloop.enabled=false: the plugin stays on the class path, its tabs do not show
export default settings.enabled ? [traceTab, runsTab, versionsTab, evaluationsTab, runPage] : [];
