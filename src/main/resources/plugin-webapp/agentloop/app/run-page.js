// The plugin's run page, #/agentloop/run/<id>: any run, finished or not, with its whole trace.
// Cockpit CE cannot open a finished process instance, so links to finished and restarted runs
// lead here. Cockpit renders a route once, so a link to another run (restarted from / as) is
// followed by watching the address.
import { agentLoopApi } from './api.js';
import { RunPanel } from './trace-tab.js';

const ROUTE = /^#\/agentloop\/run\/([^/?]+)/;

let mounted = null;

function show(node, api) {
  const match = ROUTE.exec(window.location.hash);
  const runId = match ? decodeURIComponent(match[1]) : null;
  if (!runId || (mounted && mounted.runId === runId && mounted.root.isConnected)) {
    return;
  }
  mounted?.stop();
  node.replaceChildren();
  mounted = new RunPanel(node, agentLoopApi(api), runId, true);
}

let onHashChange = null;

export default {
  id: 'agentloop.run',
  pluginPoint: 'cockpit.route',
  properties: { path: '/agentloop/run/:id', label: '/agentloop/run' },
  render(node, { api }) {
    show(node, api);
    window.removeEventListener('hashchange', onHashChange);
    onHashChange = () => show(node, api);
    window.addEventListener('hashchange', onHashChange);
  },
  unmount() {
    window.removeEventListener('hashchange', onHashChange);
    mounted?.stop();
    mounted = null;
  }
};
