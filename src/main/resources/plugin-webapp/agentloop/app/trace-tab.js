// Process instance view → tab "Agent trace": how the run stands, what it used, the breakers, its
// trace with superseded branches, and the operator's actions (edit & resume, regenerate, stop).
import { agentLoopApi } from './api.js';
import { clear, h, notice, time } from './dom.js';
import { stepEditor } from './step-editor.js';
import { traceView } from './trace-view.js';

const POLL_MILLIS = 2000;
const FINISHED = ['ANSWERED', 'REJECTED', 'STOPPED', 'CANCELLED'];
const CONTINUES_AT = {
  think: 'the agent thinks again from there',
  act: 'the action runs',
  approveAction: 'the action waits for approval in Tasklist, because its tool has side effects'
};

function sideEffects(result) {
  const effects = result.sideEffects || [];
  return effects.length
    ? ` Side effects on the superseded branch (they happened and are not undone): ${effects
      .map(e => `${e.tool} ${JSON.stringify(e.arguments)} at #${e.step}`).join('; ')}.`
    : '';
}

export function resumedMessage(result) {
  const superseded = (result.superseded || []).map(id => `#${id}`).join(', ');
  return `Step #${result.newStep} replaces #${result.editedStep}; ${CONTINUES_AT[result.continuesAt] || `the run continues at ${result.continuesAt}`}.`
    + (superseded ? ` Superseded: ${superseded}.` : '') + sideEffects(result);
}

/** A small form: a reason and a button, enabled when the caller may do it. */
function reasonForm(name, label, buttonClass, placeholder, onSubmit) {
  const reason = h('input', { class: 'form-control input-sm', type: 'text', placeholder, 'data-field': `${name}-reason`,
    disabled: true });
  // off until the API has said what the user may do
  const button = h('button', { class: `btn btn-sm ${buttonClass}`, type: 'submit', 'data-action': name, disabled: true },
    label);
  const form = h('form', { class: 'form-inline agentloop-action' }, reason, ' ', button);
  form.addEventListener('submit', event => {
    event.preventDefault();
    onSubmit(reason.value.trim(), () => { reason.value = ''; });
  });
  return { form, button, reason };
}

class TraceTab {
  constructor(node, client, runId) {
    this.client = client;
    this.runId = runId;
    this.messages = h('div', { class: 'agentloop-messages' });
    this.summary = h('div', { class: 'agentloop-summary' });
    this.why = h('p', { class: 'agentloop-why text-muted' });
    this.regenerateForm = reasonForm('regenerate', 'Regenerate answer', 'btn-default', 'why a new answer (optional)',
      (reason, done) => this.act(() => client.regenerate(runId, reason || undefined), true, done,
        result => `A new answer is being generated; ${CONTINUES_AT[result.continuesAt] || 'the run goes on'}.${sideEffects(result)}`));
    this.stopForm = reasonForm('stop', 'Stop run', 'btn-danger', 'why the run stops', (reason, done) =>
      this.act(() => client.stop(runId, reason), Boolean(reason), done,
        () => 'The run is stopped. Finished runs are listed in the process definition\'s tab "Agent runs".'));
    this.breakers = h('div', { class: 'agentloop-breakers' });
    this.trace = h('div', { class: 'agentloop-trace' });
    this.root = h('div', { class: 'agentloop', 'data-run': runId },
      this.messages, this.summary,
      h('div', { class: 'agentloop-actions' }, this.regenerateForm.form, this.stopForm.form,
        h('button', { class: 'btn btn-sm btn-link', type: 'button', 'data-action': 'refresh', onclick: () => this.load() },
          'Refresh')),
      this.why, this.breakers,
      h('h4', {}, 'Trace'), this.trace);
    node.append(this.root);
    this.fingerprint = null;
    this.load();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async load() {
    clearTimeout(this.timer);
    let polling = true;
    try {
      const [run, active, all, actions, breakers] = await Promise.all([
        this.client.run(this.runId), this.client.trace(this.runId, 'active'), this.client.trace(this.runId, 'all'),
        // without these the run is still worth showing
        this.client.actions(this.runId).catch(e => ({ why: e.message })),
        this.client.breakers().catch(() => null)]);
      if (this.stopped) {
        return;
      }
      this.run = run;
      this.drawSummary(run);
      this.drawActions(actions);
      this.drawBreakers(breakers);
      // the trace is drawn again only when it changed: a reasoning or branch the operator unfolded stays open
      const traceKey = JSON.stringify([run.version, run.status, run.waitingFor, actions]);
      if (traceKey !== this.traceKey) {
        this.traceKey = traceKey;
        this.drawTrace(active.steps, all.steps, actions);
      }
      polling = !FINISHED.includes(run.status);
    } catch (e) {
      if (e.status === 404) {
        clear(this.root, notice('info', 'This process instance is not an AgentLoop run.'));
        polling = false;
      } else {
        // e.g. the session ended: say so, and try again with the next poll
        clear(this.summary, notice('danger', e.message));
      }
    }
    if (polling && !this.stopped && this.root.isConnected) {
      this.timer = setTimeout(() => this.load(), POLL_MILLIS);
    }
  }

  drawSummary(run) {
    const fact = (label, value, name) => (value === undefined || value === null || value === '' ? null
      : h('div', { class: 'agentloop-fact', 'data-fact': name }, h('dt', {}, label), h('dd', {}, value)));
    clear(this.summary,
      h('dl', { class: 'agentloop-facts' },
        fact('Status', h('span', { class: `agentloop-run-status agentloop-status-${run.status.toLowerCase()}` }, run.status),
          'status'),
        fact('Why', run.statusReason, 'statusReason'),
        fact('Waiting for', (run.waitingFor || []).join(', '), 'waitingFor'),
        fact('Incident', run.incident, 'incident'),
        fact('Agent', run.agent, 'agent'),
        fact('Question', run.question, 'question'),
        fact('Final answer', run.finalAnswer, 'finalAnswer'),
        fact('Started', time(run.createdAt), 'createdAt'),
        fact('Ended', time(run.endedAt), 'endedAt'),
        fact('Restarted from', run.restartedFrom && `run ${run.restartedFrom} at step #${run.restartedFromStep}`
          + (run.restartedBy ? ` by ${run.restartedBy}` : '') + (run.restartReason ? `: “${run.restartReason}”` : ''),
        'restartedFrom'),
        fact('Restarted as', (run.restarts || []).length ? h('span', {}, run.restarts.map(id =>
          h('a', { href: `#/process-instance/${encodeURIComponent(id)}/runtime` }, id, ' '))) : null, 'restarts')),
      h('table', { class: 'table table-condensed agentloop-budgets' },
        h('thead', {}, h('tr', {}, ['Steps', 'Model calls', 'Tool calls', 'Tokens'].map(label => h('th', {}, label)))),
        h('tbody', {}, h('tr', {}, [run.steps, run.modelCalls, run.toolCalls, run.tokens].map((value, i) =>
          h('td', { 'data-budget': ['steps', 'modelCalls', 'toolCalls', 'tokens'][i] }, value ?? '–'))))));
  }

  drawActions(actions) {
    const allow = (form, allowed) => {
      form.button.disabled = !allowed;
      form.reason.disabled = !allowed;
    };
    allow(this.regenerateForm, actions.regenerate === true);
    allow(this.stopForm, actions.stop === true);
    this.why.textContent = actions.why || '';
  }

  drawBreakers(breakers) {
    // [{name, kind, target, state}]; anything else is no information this tab can use
    if (!Array.isArray(breakers)) {
      clear(this.breakers, h('p', { class: 'text-muted', 'data-breakers': 'none' }, 'Circuit breakers: no breaker information.'));
      return;
    }
    clear(this.breakers, h('h4', {}, 'Circuit breakers'), breakers.length === 0
      ? h('p', { class: 'text-muted' }, 'No circuit breaker has been used yet.')
      : h('table', { class: 'table table-condensed' },
        h('thead', {}, h('tr', {}, ['Breaker', 'Kind', 'Target', 'State'].map(label => h('th', {}, label)))),
        h('tbody', {}, breakers.map(b => h('tr', { 'data-breaker': b.name },
          h('td', {}, b.name), h('td', {}, b.kind), h('td', {}, b.target),
          h('td', { class: `agentloop-breaker-${String(b.state).toLowerCase()}` }, b.state))))));
  }

  drawTrace(active, all, actions) {
    const fingerprint = JSON.stringify([all.map(s => [s.id, s.status]), active.map(s => s.id), actions.edit]);
    // never pull a form away from under the operator's fingers
    if (fingerprint === this.fingerprint || this.trace.querySelector('form')) {
      return;
    }
    this.fingerprint = fingerprint;
    clear(this.trace, traceView(active, all, step => step.kind === 'FINAL_ANSWER' ? null : h('button', {
      class: 'btn btn-xs btn-default', type: 'button', 'data-action': 'edit', disabled: actions.edit !== true,
      title: actions.edit === true ? 'edit this step and resume the run from it' : actions.why || '',
      onclick: event => this.openEditor(step, event.target.closest('.agentloop-step'))
    }, 'Edit')));
  }

  openEditor(step, row) {
    const slot = row.querySelector('.agentloop-step-slot');
    // the version the operator saw: polling goes on while the form is open, and an edit made on an
    // older picture of the run must be refused (409), not applied to whatever the run is now
    const baseVersion = this.run.version;
    const close = () => {
      slot.replaceChildren();
      this.fingerprint = null;
      this.load();
    };
    clear(slot, stepEditor(step, async (content, reason) => {
      const result = await this.client.edit(this.runId, step.id, content, reason, baseVersion);
      clear(this.messages, notice('success', resumedMessage(result)));
      close();
    }, close));
    slot.querySelector('textarea, input')?.focus();
  }

  async act(call, hasReason, done, success) {
    if (!hasReason) {
      clear(this.messages, notice('warning', 'Please give a reason: it is kept with the run.'));
      return;
    }
    clear(this.messages);
    try {
      const result = await call();
      done();
      clear(this.messages, notice('success', success(result)));
    } catch (e) {
      clear(this.messages, notice('danger', e.message));
    }
    this.fingerprint = null;
    this.load();
  }
}

let mounted = null;

export default {
  id: 'agentloop.processInstance.trace',
  pluginPoint: 'cockpit.processInstance.runtime.tab',
  priority: 20,
  properties: { label: 'Agent trace' },
  render(node, { api, processInstanceId }) {
    mounted?.stop();
    mounted = new TraceTab(node, agentLoopApi(api), processInstanceId);
  },
  unmount() {
    mounted?.stop();
    mounted = null;
  }
};
