// The prompt of one model call as the model received it: every message with its role, the tool
// calls an assistant message carried, and the tools offered (folded). Text nodes only.
import { clear, h, json, notice } from './dom.js';

const ROLES = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool result' };

function message(m, i) {
  return h('li', { class: `agentloop-message agentloop-message-${m.role}`, 'data-message': i, 'data-role': m.role },
    h('div', { class: 'agentloop-message-role' }, ROLES[m.role] || m.role, m.role === 'tool' ? ` (${m.tool}, ${m.callId})` : ''),
    m.text ? h('div', { class: 'agentloop-text' }, m.text) : null,
    (m.toolCalls || []).map(call => h('div', { class: 'agentloop-message-call' },
      h('code', {}, call.name), ` ${call.id} `, h('pre', { class: 'agentloop-json' }, call.arguments))));
}

/** Loads and shows the prompt of `step` into the row's slot; a second click folds it away. */
export async function showPrompt(client, runId, step, row) {
  const slot = row.querySelector('.agentloop-step-slot');
  if (slot.querySelector('.agentloop-prompt')) {
    clear(slot);
    return;
  }
  clear(slot, h('p', { class: 'text-muted' }, 'Loading the prompt…'));
  try {
    const prompt = await client.prompt(runId, step.id);
    clear(slot, h('div', { class: 'agentloop-prompt', 'data-prompt': step.id },
      h('h5', {}, `What the model received for #${step.id} (${prompt.purpose === 'PLAN' ? 'planning' : 'thinking'}): `
        + `${prompt.messages.length} message${prompt.messages.length === 1 ? '' : 's'}, ${prompt.tools.length} tool${prompt.tools.length === 1 ? '' : 's'}`),
      h('ol', { class: 'agentloop-messages-list' }, prompt.messages.map(message)),
      prompt.tools.length ? h('details', { class: 'agentloop-prompt-tools' },
        h('summary', {}, `Tools offered: ${prompt.tools.map(t => t.name).join(', ')}`),
        h('pre', { class: 'agentloop-json' }, json(prompt.tools))) : h('p', { class: 'text-muted' }, 'No tools were offered.'),
      h('button', { class: 'btn btn-xs btn-default', type: 'button', onclick: () => clear(slot) }, 'Close')));
  } catch (e) {
    clear(slot, notice('warning', e.message));
  }
}
