// A run as an operator sees it, on the process instance's tab "Agent trace" and on the plugin's run
// page (#/agentloop/run/<id>, for any run, finished or not): how it stands and what it does right
// now, its trace first (the step tree when people changed it, then the active path with each step's
// cost and prompt), what it used of its budgets, the operator's actions (edit & resume, regenerate,
// stop; restart once it ended), and the circuit breakers, folded unless one is open.
import { cockpitTab } from './cockpit-tab.js';
import { conversation, earlierTurnOf, turnRedoneMessage } from './conversation.js';
import { conversationView } from './conversation-view.js';
import { calledByLink, nestChildRuns } from './child-runs.js';
import settings from './settings.js';
import { runMoneyText, runTokensText } from './cost-words.js';
import { clear, h, notice, time } from './dom.js';
import { liveStep } from './live-step.js';
import { showPrompt } from './prompt-view.js';
import { restartedNotice, restartForm, runLink } from './runs-tab.js';
import { stepEditor } from './step-editor.js';
import { turnRedoForm } from './turn-redo.js';
import { answerFields, decidedSteps, duration, stepRow, traceView } from './trace-view.js';
import { currentTurn, regeneratedMessage, resumedMessage, restartedMessage } from './words.js';

export { resumedMessage };

const POLL_MILLIS = 2000;
const TICK_MILLIS = 1000;
const FINISHED = ['ANSWERED', 'REJECTED', 'STOPPED', 'CANCELLED'];
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

/** "7 of 10": what the run and the agents it called used of a budget, and where they did, the run's own share. */
const used = budget => {
  const of = budget.limit === null || budget.limit === undefined ? `${budget.used} (no limit)`
    : `${budget.used} of ${budget.limit}`;
  return budget.own === undefined || budget.own === budget.used ? of
    : `${of} (${budget.own} its own, ${budget.used - budget.own} by the agents it called)`;
};

export class RunPanel {
  /** @param page true on the plugin's run page, false on Cockpit's process instance tab */
  constructor(node, client, runId, page) {
    this.page = page;
    this.client = client;
    this.runId = runId;
    this.messages = h('div', { class: 'agentloop-messages' });
    this.summary = h('div', { class: 'agentloop-summary' });
    this.why = h('p', { class: 'agentloop-why text-muted' });
    // a reason as in Tasklist's answer review: who asks for a new answer says why, and the trace keeps it
    this.regenerateForm = reasonForm('regenerate', 'Regenerate answer', 'btn-default', 'why a new answer (kept in the trace)',
      (reason, done) => this.act(() => client.regenerate(runId, reason), Boolean(reason), done, regeneratedMessage));
    this.stopForm = reasonForm('stop', 'Stop run', 'btn-danger', 'why the run stops', (reason, done) =>
      this.act(() => client.stop(runId, reason), Boolean(reason), done,
        () => 'The run is stopped. It stays readable on its run page and in the process definition\'s tab "Agent runs".'));
    this.live = h('div', { class: 'agentloop-live', 'data-fact': 'activeStep' });
    // the step under way, where the next step of the trace will be
    this.pending = h('div', { class: 'agentloop-pending' });
    this.budgets = h('div', { class: 'agentloop-usage' });
    this.breakers = h('div', { class: 'agentloop-breakers' });
    this.trace = h('div', { class: 'agentloop-trace' });
    this.conversation = h('div', { class: 'agentloop-conversation-box' });
    this.root = h('div', { class: `agentloop${page ? ' agentloop-page' : ''}`, 'data-run': runId },
      page ? h('h2', {}, 'Agent run ', h('code', {}, runId)) : null,
      // a newcomer must not take the demo's canned replies for a model's
      settings.scriptedModel ? h('p', { class: 'agentloop-scripted', 'data-scripted-model': '' },
        'Scripted demo model — set agentloop.llm.provider to use a real one. Its replies follow a script and are'
        + ' filled from the tool results it read, so edits of observations still change its answers.') : null,
      this.messages, this.live,
      h('div', { class: 'agentloop-actions' }, this.regenerateForm.form, this.stopForm.form,
        h('button', { class: 'btn btn-sm btn-link', type: 'button', 'data-action': 'refresh', onclick: () => this.load() },
          'Refresh'),
        page ? null : h('a', { class: 'btn btn-sm btn-link', href: `#/agentloop/run/${encodeURIComponent(runId)}`,
          'data-action': 'run-page' }, 'Run page')),
      this.why, this.conversation,
      h('h4', {}, 'Trace'), this.trace, this.pending,
      this.summary, this.budgets, this.breakers);
    node.append(this.root);
    if (page) {
      // the keyboard scrolls what has the focus: PageDown and End work at once, before any click
      // (focused once the page is in the document, which Cockpit's node is not yet while rendering)
      this.root.tabIndex = -1;
    }
    this.fingerprint = null;
    this.ticker = setInterval(() => this.drawLive(), TICK_MILLIS);
    this.load();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.ticker);
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
      this.readAt = Date.now();
      if (this.page && !this.focused && this.root.isConnected) {
        this.focused = true;
        // never out of a field the user types into
        if (!document.activeElement?.matches('input, textarea, select, [contenteditable]')) {
          this.root.focus({ preventScroll: true });
        }
      }
      this.drawLive();
      this.drawSummary(run);
      this.drawBudgets(run);
      this.drawActions(actions);
      this.drawBreakers(breakers);
      // the trace is drawn again only when it changed: a reasoning or branch the operator unfolded stays open
      // with the steps themselves: the two traces are read side by side and may straddle a write
      const traceKey = JSON.stringify([run.version, run.status, run.waitingFor, actions,
        all.steps.map(step => [step.id, step.status]), active.steps.map(step => step.id)]);
      if (traceKey !== this.traceKey) {
        this.traceKey = traceKey;
        this.drawTrace(decidedSteps(active), decidedSteps(all), actions);
      }
      polling = !FINISHED.includes(run.status);
    } catch (e) {
      if (e.status === 404) {
        clear(this.root, notice('info', this.page ? `There is no AgentLoop run ${this.runId}.`
          : 'This process instance is not an AgentLoop run.'));
        polling = false;
      } else if ((!this.run || e.status === 401 || e.status === 403) && !this.trace.querySelector('form')) {
        // nothing of the run may be shown: the reason, in words, where the trace would be (never over an open
        // form); the next poll tries again and draws the trace anew
        clear(this.trace, notice('danger', e.message));
        this.traceKey = null;
        this.fingerprint = null;
      } else {
        // e.g. a moment without the server: say so, and try again with the next poll
        clear(this.summary, notice('danger', e.message));
      }
    }
    if (!polling) {
      // nothing counts on in a run that has ended or is not there
      clearInterval(this.ticker);
    }
    if (polling && !this.stopped && this.root.isConnected) {
      this.timer = setTimeout(() => this.load(), POLL_MILLIS);
    }
  }

  /** Status and what the run does right now; the seconds count on between polls. */
  drawLive() {
    const run = this.run;
    if (!run) {
      return;
    }
    if (!this.root.isConnected) {
      // Cockpit took the page away without unmounting it
      this.stop();
      return;
    }
    const status = h('span', { class: `agentloop-run-status agentloop-status-${run.status.toLowerCase()}`,
      'data-status': run.status }, run.status);
    const now = liveStep(run.activeStep, this.readAt);
    clear(this.pending, now ? h('div', { class: 'agentloop-step agentloop-step-now', 'data-now': run.activeStep.kind },
      h('span', { class: 'agentloop-kind' }, 'Now'), ' ', liveStep(run.activeStep, this.readAt)) : null);
    clear(this.live, status, now ? [' — ', h('span', { class: 'agentloop-now', 'data-now': run.activeStep.kind }, now)]
      : run.statusReason ? [' — ', run.statusReason] : null,
    run.incident ? h('div', { class: 'agentloop-error' }, 'Incident: ', run.incident) : null);
  }

  drawSummary(run) {
    const turn = currentTurn(run);
    const fact = (label, value, name) => (value === undefined || value === null || value === '' ? null
      : h('div', { class: 'agentloop-fact', 'data-fact': name }, h('dt', {}, label), h('dd', {}, value)));
    clear(this.summary,
      h('dl', { class: 'agentloop-facts' },
        fact('Status', h('span', { class: `agentloop-run-status agentloop-status-${run.status.toLowerCase()}` }, run.status),
          'status'),
        fact('Why', run.statusReason, 'statusReason'),
        fact('Ended by', run.endedBy, 'endedBy'),
        fact('Incident', run.incident, 'incident'),
        fact('Agent', run.agent, 'agent'),
        fact('Agent version', run.agentVersion, 'agentVersion'),
        fact('Called by', calledByLink(run.calledBy), 'calledBy'),
        // Cockpit shows the diagram of running instances only
        fact('Diagram', this.page && !FINISHED.includes(run.status)
          ? h('a', { href: `#/process-instance/${encodeURIComponent(run.id)}/runtime`, 'data-action': 'diagram' },
            'where the run is, in Cockpit\'s process instance view') : null, 'diagram'),
        // the current turn's, as the conversation below has every turn's
        fact(turn.questionLabel, turn.question, 'question'),
        fact(turn.answerLabel, turn.answer, 'finalAnswer'),
        fact('Answer fields', answerFields(run.answerData), 'answerData'),
        fact('Started', time(run.createdAt), 'createdAt'),
        fact('Ended', time(run.endedAt), 'endedAt'),
        fact('Restarted from', run.restartedFrom && h('span', {}, 'run ', runLink(run.restartedFrom),
          ` at step #${run.restartedFromStep}` + (run.restartedBy ? ` by ${run.restartedBy}` : '')
          + (run.restartReason ? `: “${run.restartReason}”` : '')), 'restartedFrom'),
        fact('Restarted as', (run.restarts || []).length ? h('span', {}, run.restarts.map(id => [runLink(id), ' '])) : null,
          'restarts')));
  }

  /** Budgets as used / limit, and what the calls cost in time and tokens. */
  drawBudgets(run) {
    const b = run.budgets || {};
    const c = run.costs || {};
    const tokens = runTokensText(c) ?? (run.modelCalls ? 'not reported by the endpoint' : '–');
    const money = runMoneyText(run.money);
    const row = (label, value, name) => h('tr', {}, h('th', {}, label), h('td', { 'data-budget': name }, value));
    clear(this.budgets, h('h4', {}, 'Budgets and costs'),
      h('table', { class: 'table table-condensed agentloop-budgets' }, h('tbody', {},
        row('Steps', run.steps, 'steps'),
        row('Model calls', b.modelCalls ? used(b.modelCalls) : run.modelCalls, 'modelCalls'),
        row('Tool calls', b.toolCalls ? used(b.toolCalls) : run.toolCalls, 'toolCalls'),
        row('Tokens', run.tokens === 0 && run.modelCalls > 0 && c.modelCallsWithoutUsage === run.modelCalls
          ? `not reported by the endpoint${b.tokens && b.tokens.limit ? ` (limit ${b.tokens.limit})` : ''}`
          : b.tokens ? used(b.tokens) : run.tokens, 'tokens'),
        row('Prompt / completion tokens', tokens, 'tokenParts'),
        money && row('Cost (price table)', money, 'money'),
        row('Time in model calls', duration(c.modelLatencyMillis), 'modelTime'),
        row('Time in tool calls', duration(c.toolLatencyMillis), 'toolTime'))));
  }

  drawActions(actions) {
    const allow = (form, allowed) => {
      form.button.disabled = !allowed;
      form.reason.disabled = !allowed;
    };
    allow(this.regenerateForm, actions.regenerate === true);
    allow(this.stopForm, actions.stop === true);
    // an ended run offers only its restart, on its steps
    const ended = Boolean(this.run && FINISHED.includes(this.run.status));
    this.regenerateForm.form.hidden = ended;
    this.stopForm.form.hidden = ended;
    this.why.textContent = actions.why || '';
  }

  /** Shared by all runs, so folded unless one is not closed (the operator should see that at once). */
  drawBreakers(breakers) {
    // [{name, kind, target, state}]; anything else is no information this tab can use
    if (!Array.isArray(breakers)) {
      clear(this.breakers, h('p', { class: 'text-muted', 'data-breakers': 'none' }, 'Circuit breakers: no breaker information.'));
      return;
    }
    const open = breakers.filter(b => String(b.state).toUpperCase() !== 'CLOSED');
    const details = this.breakers.querySelector('details');
    const keepOpen = details ? details.open : false;
    clear(this.breakers, h('details', { open: open.length > 0 || keepOpen, 'data-breakers': open.length ? 'open' : 'closed' },
      h('summary', {}, `Circuit breakers (shared by all runs): ${breakers.length === 0 ? 'none used yet'
        : open.length ? `${open.length} of ${breakers.length} not closed` : `all ${breakers.length} closed`}`),
      breakers.length === 0 ? null : h('table', { class: 'table table-condensed' },
        h('thead', {}, h('tr', {}, ['Breaker', 'Kind', 'Target', 'State'].map(label => h('th', {}, label)))),
        h('tbody', {}, breakers.map(b => h('tr', { 'data-breaker': b.name },
          h('td', {}, b.name), h('td', {}, b.kind), h('td', {}, b.target),
          h('td', { class: `agentloop-breaker-${String(b.state).toLowerCase()}` }, b.state)))))));
  }

  drawTrace(active, all, actions) {
    const fingerprint = JSON.stringify([all.map(s => [s.id, s.status, s.decisions.length]), active.map(s => s.id),
      actions.edit]);
    // never pull a form away from under the operator's fingers
    if (fingerprint === this.fingerprint || this.trace.querySelector('form') || this.conversation.querySelector('form')) {
      return;
    }
    this.fingerprint = fingerprint;
    this.turns = conversation(this.run.question, active, all);
    clear(this.conversation, conversationView(this.run, active, all,
      { enabled: actions.edit === true, why: actions.why, open: (turn, slot) => this.openRedo(turn, slot) }));
    // only turns of the active path have a slot
    const redone = this.turnNotice && this.conversation.querySelector(`[data-turn-slot='${this.turnNotice.turn}']`);
    if (redone) {
      clear(redone, notice('success', this.turnNotice.text));
    }
    const finished = FINISHED.includes(this.run.status);
    // a final answer ends a run: edit or restart from the step before it for a new answer
    clear(this.trace, traceView(active, all, step => (step.kind === 'FINAL_ANSWER' ? null : finished
      ? h('button', {
        class: 'btn btn-xs btn-default', type: 'button', 'data-action': 'restart', disabled: actions.restart !== true,
        title: actions.restart === true ? 'start a new run from this step' : actions.why || '',
        onclick: event => this.openRestart(step, event.target.closest('.agentloop-step'))
      }, 'Restart from here')
      : h('button', {
        class: 'btn btn-xs btn-default', type: 'button', 'data-action': 'edit', disabled: actions.edit !== true,
        title: actions.edit === true ? 'edit this step and resume the run from it' : actions.why || '',
        onclick: event => this.openEditor(step, event.target.closest('.agentloop-step'))
      }, 'Edit')), (step, row) => showPrompt(this.client, this.runId, step, row)));
    // each call another agent answered: the child's steps, folded, under the call's observation
    nestChildRuns(this.trace.querySelector('.agentloop-active-path'), active, this.client,
      trace => h('ol', { class: 'agentloop-steps agentloop-child-path' }, decidedSteps(trace).map(s => stepRow(s))));
    const noticed = this.stepNotice
      && this.trace.querySelector(`.agentloop-active-path > li[data-step="${this.stepNotice.stepId}"] .agentloop-step-slot`);
    if (noticed) {
      clear(noticed, notice('success', this.stepNotice.text));
    }
  }

  openRestart(step, row) {
    const slot = row.querySelector('.agentloop-step-slot');
    clear(slot, restartForm(step, async reason => {
      const restarted = await this.client.restart(this.runId, step.id, reason);
      // the confirmation goes where the operator looks: under the step whose button started it
      clear(slot, restartedNotice(this.runId, step, restarted));
      this.load();
    }, () => clear(slot)));
    slot.querySelector('input')?.focus();
  }

  openRedo(turn, slot) {
    const close = () => {
      slot.replaceChildren();
      this.fingerprint = null;
      this.load();
    };
    clear(slot, turnRedoForm(turn, async (replay, reason) => {
      await this.client.regenerateTurn(this.runId, turn, replay, reason);
      // said under the turn whose button started it, which the conversation draws again where it was
      this.turnNotice = { turn, text: turnRedoneMessage(turn, replay) };
      this.stepNotice = null;
      clear(this.messages);
      close();
    }, close));
    slot.querySelector('input')?.focus();
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
    clear(slot, stepEditor(step, async (content, reason, replay) => {
      const result = await this.client.edit(this.runId, step.id, content, reason, baseVersion, replay);
      // said where the operator pressed the button: under the step that replaced the edited one,
      // which the trace draws where the edited step was (kept there as the run goes on)
      this.stepNotice = { stepId: result.newStep, text: resumedMessage(result) };
      this.turnNotice = null;
      clear(this.messages);
      close();
    }, close, earlierTurnOf(this.turns || [], step.id) !== null));
    slot.querySelector('textarea, input')?.focus();
  }

  async act(call, hasReason, done, success) {
    if (!hasReason) {
      clear(this.messages, notice('warning', 'Please give a reason: it is kept with the run.'));
      return;
    }
    clear(this.messages);
    this.stepNotice = null;
    this.turnNotice = null;
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

export default cockpitTab({
  id: 'agentloop.processInstance.trace',
  pluginPoint: 'cockpit.processInstance.runtime.tab',
  priority: 20,
  label: 'Agent trace',
  open: (node, client, id) => new RunPanel(node, client, id, false)
});
