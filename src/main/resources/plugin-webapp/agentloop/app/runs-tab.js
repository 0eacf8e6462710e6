// Process definition view → tab "Agent runs": the agent's finished runs (Community Cockpit shows no
// history), each with its trace and "restart from step", which starts a new run whose trace begins
// with the old run's path up to that step.
import { agentLoopApi } from './api.js';
import { clear, h, notice, time } from './dom.js';
import { kindLabel, traceView } from './trace-view.js';

const LIMIT = 50;

const runLink = id => h('a', { href: `#/process-instance/${encodeURIComponent(id)}/runtime`, 'data-run-link': id }, id);

function restartForm(step, onSubmit, onCancel) {
  const reason = h('input', { class: 'form-control', type: 'text', 'data-field': 'restart-reason',
    placeholder: 'why the run starts again (kept with the new run)' });
  const problem = h('div', { class: 'agentloop-form-problem' });
  const submit = h('button', { class: 'btn btn-primary', type: 'submit', 'data-action': 'submit-restart' }, 'Restart');
  const form = h('form', { class: 'agentloop-editor', 'data-restart': step.id },
    h('h4', {}, `Restart from #${step.id} (${kindLabel(step.kind)})`),
    h('p', { class: 'help-block' },
      `A new run of the same agent version starts with a copy of this run's path up to and including #${step.id}, and goes on from there. This run stays as it is.`),
    h('div', { class: 'form-group' }, h('label', {}, 'Reason', reason)),
    problem,
    h('div', { class: 'agentloop-buttons' }, submit, ' ',
      h('button', { class: 'btn btn-default', type: 'button', onclick: onCancel }, 'Cancel')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clear(problem);
    if (!reason.value.trim()) {
      problem.append(h('div', { class: 'alert alert-warning', role: 'alert' }, 'Please give a reason: it is kept with the new run.'));
      return;
    }
    submit.disabled = true;
    try {
      await onSubmit(reason.value.trim());
    } catch (e) {
      problem.append(h('div', { class: 'alert alert-danger', role: 'alert' }, e.message));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

class RunsTab {
  constructor(node, client, definitionId) {
    this.client = client;
    this.definitionId = definitionId;
    this.messages = h('div', { class: 'agentloop-messages' });
    this.list = h('div', { class: 'agentloop-runs' }, h('p', { class: 'text-muted' }, 'Loading the finished runs…'));
    this.root = h('div', { class: 'agentloop' }, this.messages, this.list);
    node.append(this.root);
    this.load();
  }

  async load() {
    try {
      const definition = await this.client.processDefinition(this.definitionId);
      const runs = await this.client.finishedRuns(definition.key);
      this.draw(definition.key, runs);
    } catch (e) {
      clear(this.list, notice(e.status === 400 ? 'info' : 'danger',
        e.status === 400 ? 'This process is not an AgentLoop agent.' : e.message));
    }
  }

  draw(agent, runs) {
    if (!runs.length) {
      clear(this.list, h('p', { class: 'text-muted' }, `No finished runs of ${agent} yet.`));
      return;
    }
    clear(this.list,
      h('p', { class: 'text-muted' }, runs.length === LIMIT ? `The ${LIMIT} newest finished runs of ${agent}.`
        : `Finished runs of ${agent}, newest first.`),
      h('table', { class: 'table agentloop-run-table' },
        h('thead', {}, h('tr', {}, ['Run', 'Question', 'Status', 'Started', 'Ended', 'Steps', ''].map(l => h('th', {}, l)))),
        h('tbody', {}, runs.flatMap(run => this.rows(run)))));
  }

  rows(run) {
    const detail = h('td', { colspan: '7' });
    const detailRow = h('tr', { class: 'agentloop-run-detail', hidden: true }, detail);
    const toggle = h('button', { class: 'btn btn-xs btn-default', type: 'button', 'data-action': 'show-trace',
      onclick: () => {
        detailRow.hidden = !detailRow.hidden;
        toggle.textContent = detailRow.hidden ? 'Trace and restart' : 'Hide';
        if (!detailRow.hidden) {
          this.showTrace(run, detail);
        }
      } }, 'Trace and restart');
    return [
      h('tr', { 'data-run': run.id },
        h('td', {}, h('code', {}, run.id)),
        h('td', { class: 'agentloop-question' }, run.question),
        h('td', {}, h('span', { class: `agentloop-run-status agentloop-status-${run.status.toLowerCase()}` }, run.status),
          run.statusReason && h('div', { class: 'text-muted' }, run.statusReason),
          run.restartedFrom && h('div', { class: 'text-muted' }, `restarted from ${run.restartedFrom} at #${run.restartedFromStep}`),
          (run.restarts || []).length > 0 && h('div', { class: 'text-muted' }, 'restarted as ',
            run.restarts.map(id => [runLink(id), ' ']))),
        h('td', {}, time(run.createdAt)),
        h('td', {}, time(run.endedAt)),
        h('td', {}, run.steps),
        h('td', {}, toggle)),
      detailRow];
  }

  async showTrace(run, cell) {
    clear(cell, h('p', { class: 'text-muted' }, 'Loading the trace…'));
    try {
      const [trace, all, actions] = await Promise.all([this.client.trace(run.id, 'active'),
        this.client.trace(run.id, 'all'), this.client.actions(run.id).catch(e => ({ why: e.message }))]);
      clear(cell,
        run.finalAnswer && h('p', {}, h('strong', {}, 'Final answer: '), run.finalAnswer),
        actions.restart === true ? null : h('p', { class: 'agentloop-why text-muted' }, actions.why || 'Restart is not available.'),
        // a final answer ends a run: restart from the step before it for a new answer
        traceView(trace.steps, all.steps, step => step.kind === 'FINAL_ANSWER' ? null : h('button', {
          class: 'btn btn-xs btn-default', type: 'button', 'data-action': 'restart', disabled: actions.restart !== true,
          title: actions.restart === true ? 'start a new run from this step' : actions.why || '',
          onclick: event => this.openRestart(run, step, event.target.closest('.agentloop-step'))
        }, 'Restart from here')));
    } catch (e) {
      clear(cell, notice('danger', e.message));
    }
  }

  openRestart(run, step, row) {
    const slot = row.querySelector('.agentloop-step-slot');
    clear(slot, restartForm(step, async reason => {
      const restarted = await this.client.restart(run.id, step.id, reason);
      clear(slot);
      clear(this.messages, h('div', { class: 'alert alert-success agentloop-notice', role: 'status' },
        `Run ${run.id} restarted from #${step.id} as run `, runLink(restarted.id), ` (${restarted.status}).`));
    }, () => clear(slot)));
    slot.querySelector('input')?.focus();
  }
}

export default {
  id: 'agentloop.processDefinition.runs',
  pluginPoint: 'cockpit.processDefinition.runtime.tab',
  // after Cockpit's own "Process Instances", which stays the definition's first tab
  priority: 5,
  properties: { label: 'Agent runs' },
  render(node, { api, processDefinitionId }) {
    new RunsTab(node, agentLoopApi(api), processDefinitionId);
  }
};
