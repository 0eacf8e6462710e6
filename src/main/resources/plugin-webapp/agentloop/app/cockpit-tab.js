// A Cockpit tab that shows one view at a time: rendering it again (another definition or instance) stops the view
// it showed before, so that no poll of a page the operator left goes on.
import { agentLoopApi } from './api.js';

/**
 * @param pluginPoint 'cockpit.processDefinition.runtime.tab' or 'cockpit.processInstance.runtime.tab'
 * @param open (node, client, id) => a view with stop(), for the definition's or the instance's id
 */
export function cockpitTab({ id, pluginPoint, priority, label, open }) {
  let mounted = null;
  return {
    id,
    pluginPoint,
    priority,
    properties: { label },
    render(node, { api, processDefinitionId, processInstanceId }) {
      mounted?.stop();
      mounted = open(node, agentLoopApi(api), processInstanceId ?? processDefinitionId);
    },
    unmount() {
      mounted?.stop();
      mounted = null;
    }
  };
}
