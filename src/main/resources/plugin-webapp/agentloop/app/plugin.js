// AgentLoop's Cockpit plugin (Camunda 7.24 frontend plugin API): plain ES modules, loaded through
// customScripts in ../config.js, no build step. Everything goes through AgentLoop's REST API as the
// logged-in Cockpit user; the API decides what that user may do.
import traceTab from './trace-tab.js';
import runsTab from './runs-tab.js';

const STYLES = new URL('./agentloop.css', import.meta.url).href;
if (!document.querySelector(`link[href="${STYLES}"]`)) {
  document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: STYLES }));
}

export default [traceTab, runsTab];
