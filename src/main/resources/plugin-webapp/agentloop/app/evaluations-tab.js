// Process definition view → tab "Agent evaluations": the agent's evaluations, one of them case by case side by side
// (evaluation-view.js), a new one started (a deployed version or a pasted or uploaded diagram, on recorded runs found
// by search, the newest runs and/or a data set, with a reason), and a finished one promoted. The API decides who may:
// what it refuses shows in its words.
import { cockpitTab } from './cockpit-tab.js';
import { clear, h, notice, time } from './dom.js';
import { caseView, evaluationHead } from './evaluation-view.js';
import { candidateText, evaluationBody, statusText, summaryText } from './evaluation-words.js';
import { evaluationForm } from './evaluation-form.js';

const POLL_MILLIS = 1500;

function evaluationList(evaluations, open) {
  if (!evaluations.length) {
    return h('p', { class: 'text-muted', 'data-no-evaluations': '' }, 'No evaluation of this agent yet.');
  }
  return h('table', { class: 'table table-condensed agentloop-evaluations' },
    h('thead', {}, h('tr', {}, ['Started', 'By', 'Candidate', 'Status', 'Cases', 'Why'].map(l => h('th', {}, l)))),
    h('tbody', {}, evaluations.map(evaluation => h('tr', { 'data-evaluation-row': evaluation.id },
      h('td', {}, h('a', { href: '', onclick: event => {
        event.preventDefault();
        open(evaluation.id);
      } }, time(evaluation.createdAt))),
      h('td', {}, evaluation.createdBy),
      h('td', {}, candidateText(evaluation)),
      h('td', {}, statusText(evaluation)),
      h('td', {}, summaryText(evaluation.summary)),
      h('td', { class: 'agentloop-question' }, evaluation.reason ?? '')))));
}

class EvaluationsTab {
  constructor(node, client, definitionId) {
    this.client = client;
    this.definitionId = definitionId;
    this.list = h('div', {}, h('p', { class: 'text-muted' }, 'Loading the evaluations…'));
    this.form = h('div', { class: 'agentloop-eval-new' });
    this.shown = h('div', { class: 'agentloop-eval-shown' });
    node.append(h('div', { class: 'agentloop agentloop-evaluations-tab' }, this.list, this.form, this.shown));
    this.load();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async load() {
    try {
      this.agent = this.agent || (await this.client.processDefinition(this.definitionId)).key;
      const evaluations = await this.client.evaluations(this.agent);
      const start = h('button', { class: 'btn btn-sm btn-default', type: 'button', 'data-action': 'new-evaluation',
        onclick: () => this.newEvaluation() }, 'Evaluate a candidate…');
      clear(this.list, h('h4', {}, `Evaluations of ${this.agent}`), evaluationList(evaluations, id => this.open(id)),
        start);
    } catch (e) {
      const notAgent = e.status === 400 && !this.agent;
      clear(this.list, notice(notAgent ? 'info' : 'danger', notAgent ? 'This process is not an AgentLoop agent.'
        : e.message));
    }
  }

  async newEvaluation() {
    clear(this.shown);
    let versions = [];
    try {
      versions = await this.client.versions(this.agent);
    } catch (e) {
      // the list of versions is the operators' (it moves runs): whoever may not read it types the number
      if (e.status !== 403) {
        clear(this.form, notice('danger', e.message));
        return;
      }
    }
    clear(this.form, evaluationForm(this.client, this.agent, versions, values => this.start(values),
      () => clear(this.form)));
  }

  /** @return the problems in words, or none when the evaluation started */
  async start(values) {
    const { body, problems } = evaluationBody(values);
    if (problems) {
      return problems;
    }
    try {
      const started = await this.client.startEvaluation(this.agent, body);
      clear(this.form);
      this.show(started);
      this.load();
      return [];
    } catch (e) {
      return [e.message];
    }
  }

  async open(id) {
    clear(this.form);
    try {
      this.show(await this.client.evaluation(id));
    } catch (e) {
      clear(this.shown, notice('danger', e.message));
    }
  }

  /** Shows the evaluation, and again every moment while its cases run; `first`: bring it into view. */
  show(evaluation, first = true) {
    clearTimeout(this.timer);
    clear(this.shown, h('h4', {}, `Evaluation ${evaluation.id}`), evaluationHead(evaluation),
      this.promotion(evaluation), evaluation.cases.map(caseView));
    if (first) {
      // the tab sits below the diagram: the evaluation is what the person asked for
      this.shown.scrollIntoView({ block: 'start', behavior: 'auto' });
    }
    if ((evaluation.status === 'QUEUED' || evaluation.status === 'RUNNING') && !this.stopped) {
      this.timer = setTimeout(() => this.follow(evaluation.id), POLL_MILLIS);
    }
  }

  async follow(id) {
    try {
      const now = await this.client.evaluation(id);
      this.show(now, false);
      if (now.status !== 'QUEUED' && now.status !== 'RUNNING') {
        this.load();
      }
    } catch (e) {
      this.shown.append(notice('danger', e.message));
    }
  }

  promotion(evaluation) {
    if (evaluation.status !== 'DONE' || evaluation.promotion) {
      return null;
    }
    const { failed, cases } = evaluation.summary;
    if (failed) {
      return h('p', { class: 'text-muted', 'data-not-promotable': '' }, `Not to be promoted: ${failed} of its ${cases}`
        + ' cases failed. Change the candidate and evaluate it anew.');
    }
    const reason = h('input', { class: 'form-control input-sm', type: 'text', size: 48,
      'data-field': 'promotion-reason', placeholder: 'why the candidate goes live (kept with the promotion)' });
    const problem = h('div', { class: 'agentloop-form-problem' });
    const promote = h('button', { class: 'btn btn-sm btn-primary', type: 'submit', 'data-action': 'promote' },
      'Promote: new runs start on the candidate');
    const form = h('form', { class: 'form-inline agentloop-action agentloop-eval-promote' }, reason, ' ', promote,
      problem);
    form.addEventListener('submit', async event => {
      event.preventDefault();
      clear(problem);
      if (!reason.value.trim()) {
        problem.append(notice('warning', 'Please give a reason: it is kept with the promotion.'));
        return;
      }
      promote.disabled = true;
      try {
        this.show(await this.client.promote(evaluation.id, reason.value.trim()), false);
        this.load();
      } catch (e) {
        promote.disabled = false;
        problem.append(notice('danger', e.message));
      }
    });
    return form;
  }
}

export default cockpitTab({
  id: 'agentloop.processDefinition.evaluations',
  pluginPoint: 'cockpit.processDefinition.runtime.tab',
  // after "Agent versions"
  priority: 3,
  label: 'Agent evaluations',
  open: (node, client, id) => new EvaluationsTab(node, client, id)
});
