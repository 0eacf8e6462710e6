// Process definition view → tab "Agent runs": the agent's runs, finished or not (Community Cockpit
// shows no history), searched by status, start date, who wrote steps in them and their question;
// each opens on the plugin's run page or unfolds here with its trace and "restart from step", which
// starts a new run whose trace begins with the old run's path up to that step.
import { agentLoopApi } from './api.js';
import { runListCostText } from './cost-words.js';
import { clear, h, notice, time } from './dom.js';
import { decidedSteps, kindLabel, traceView } from './trace-view.js';
import { restartedMessage, runCostText, waitingText } from './words.js';

const PAGE_SIZE = 25;
const STATUSES = ['', 'RUNNING', 'WAITING', 'FAILED', 'ANSWERED', 'REJECTED', 'STOPPED', 'CANCELLED'];

/** A run on the plugin's run page, which shows any run, finished or not. */
export const runLink = id => h('a', { href: `#/agentloop/run/${encodeURIComponent(id)}`, 'data-run-link': id }, id);

/** What a restart did, with the new run's link: shown under the step it restarted from. */
export function restartedNotice(runId, step, restarted) {
  return h('div', { class: 'alert alert-success agentloop-notice', role: 'status', 'data-restarted': restarted.id },
    restartedMessage(runId, step.id), runLink(restarted.id), ` (${restarted.status}).`);
}

export function restartForm(step, onSubmit, onCancel) {
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

function searchForm(onSearch) {
  const input = (name, attributes) => h('input', { class: 'form-control input-sm', 'data-search': name, name, ...attributes });
  const fields = {
    q: input('q', { type: 'search', placeholder: 'words of the question', size: 28 }),
    status: h('select', { class: 'form-control input-sm', 'data-search': 'status', name: 'status' },
      STATUSES.map(status => h('option', { value: status }, status || 'any status'))),
    from: input('from', { type: 'date', title: 'started on or after' }),
    to: input('to', { type: 'date', title: 'started on or before' }),
    editedBy: input('editedBy', { type: 'text', placeholder: 'changed by (user id)', size: 16 })
  };
  const form = h('form', { class: 'form-inline agentloop-search', role: 'search' },
    fields.q, ' ', fields.status, ' ', h('label', {}, 'from ', fields.from), ' ', h('label', {}, 'to ', fields.to), ' ',
    fields.editedBy, ' ', h('button', { class: 'btn btn-sm btn-primary', type: 'submit', 'data-action': 'search' }, 'Search'));
  form.addEventListener('submit', event => {
    event.preventDefault();
    onSearch(Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.value.trim()])));
  });
  return form;
}

class RunsTab {
  constructor(node, client, definitionId) {
    this.client = client;
    this.definitionId = definitionId;
    this.search = {};
    this.page = 0;
    this.loads = 0;
    this.messages = h('div', { class: 'agentloop-messages' });
    this.list = h('div', { class: 'agentloop-runs' }, h('p', { class: 'text-muted' }, 'Loading the runs…'));
    this.root = h('div', { class: 'agentloop' }, this.messages,
      searchForm(search => { this.search = search; this.page = 0; this.load(); }), this.list);
    node.append(this.root);
    this.load();
  }

  async load() {
    // a slower earlier search must not overwrite the answer to a later one
    const sequence = ++this.loads;
    try {
      this.agent = this.agent || (await this.client.processDefinition(this.definitionId)).key;
      const found = await this.client.searchRuns(this.agent, { ...this.search, page: this.page, size: PAGE_SIZE });
      if (sequence !== this.loads) {
        return;
      }
      this.list.setAttribute('data-q', this.search.q || '');
      this.draw(this.agent, found.items, found.total);
    } catch (e) {
      const notAgent = e.status === 400 && !this.agent;
      clear(this.list, notice(notAgent ? 'info' : 'danger', notAgent ? 'This process is not an AgentLoop agent.' : e.message));
    }
  }

  draw(agent, runs, total) {
    const searching = Object.values(this.search).some(Boolean);
    if (!runs.length) {
      clear(this.list, h('p', { class: 'text-muted', 'data-runs': 0 }, searching ? 'No run matches.' : `No runs of ${agent} yet.`));
      return;
    }
    const first = this.page * PAGE_SIZE + 1;
    const pager = h('div', { class: 'agentloop-pager' },
      h('span', { 'data-runs': total }, `${first}–${first + runs.length - 1} of ${total} run${total === 1 ? '' : 's'} of ${agent}, newest first`),
      ' ', h('button', { class: 'btn btn-xs btn-default', type: 'button', 'data-action': 'previous-page', disabled: this.page === 0,
        onclick: () => { this.page--; this.load(); } }, 'Newer'),
      ' ', h('button', { class: 'btn btn-xs btn-default', type: 'button', 'data-action': 'next-page',
        disabled: first + runs.length - 1 >= total, onclick: () => { this.page++; this.load(); } }, 'Older'));
    clear(this.list, pager,
      h('table', { class: 'table agentloop-run-table' },
        h('thead', {}, h('tr', {}, ['Run', 'Question', 'Status', 'Started', 'Ended', 'Steps', 'Cost', ''].map(l => h('th', {}, l)))),
        h('tbody', {}, runs.flatMap(run => this.rows(run)))));
  }

  rows(run) {
    const detail = h('td', { colspan: '8' });
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
        h('td', {}, runLink(run.id), run.agentVersion ? h('div', { class: 'text-muted', 'data-run-version': run.id },
          `version ${run.agentVersion}`) : null),
        h('td', { class: 'agentloop-question' }, run.question),
        h('td', {}, h('span', { class: `agentloop-run-status agentloop-status-${run.status.toLowerCase()}` }, run.status),
          waitingText(run) && h('div', { class: 'agentloop-waiting', 'data-waiting': run.id }, waitingText(run)),
          run.statusReason && h('div', { class: 'text-muted' }, run.statusReason),
          run.restartedFrom && h('div', { class: 'text-muted' }, 'restarted from ', runLink(run.restartedFrom),
            ` at #${run.restartedFromStep}`),
          (run.restarts || []).length > 0 && h('div', { class: 'text-muted' }, 'restarted as ',
            run.restarts.map(id => [runLink(id), ' ']))),
        h('td', {}, time(run.createdAt)),
        h('td', {}, time(run.endedAt)),
        h('td', {}, run.steps),
        h('td', { class: 'agentloop-run-cost', 'data-run-cost': run.id }, runListCostText(run, runCostText(run))),
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
        traceView(decidedSteps(trace), decidedSteps(all), step => step.kind === 'FINAL_ANSWER' ? null : h('button', {
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
      // the confirmation goes where the operator looks: under the step whose button started it
      clear(slot, restartedNotice(run.id, step, restarted));
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
