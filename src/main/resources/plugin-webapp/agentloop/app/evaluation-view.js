// One evaluation, case by case, side by side: the recorded run's answer beside the candidate's (the words that went
// and came marked), the answer's fields, steps, tokens and cost of each side, the verdict, the checks and what the
// replay had to do differently. Every text from a model, a tool or a person goes in as text (dom.js).
import { h, time } from './dom.js';
import { answerDiff, candidateText, fieldRows, judgeText, statusText, summaryText, useText }
  from './evaluation-words.js';
import { runLink } from './runs-tab.js';

const VERDICT_CLASSES = { SAME: 'label-success', CHANGED: 'label-warning', FAILED: 'label-danger' };

function verdictLabel(item) {
  const verdict = item.verdict || item.status;
  return h('span', { class: `label ${VERDICT_CLASSES[item.verdict] || 'label-default'}`, 'data-verdict': verdict },
    String(verdict).toLowerCase());
}

function fact(name, ...value) {
  return h('div', { class: 'agentloop-fact' }, h('dt', {}, name), h('dd', {}, ...value));
}

/** The evaluation's head: what was evaluated, by whom and why, how it stands, and what both sides used. */
export function evaluationHead(evaluation) {
  const { summary } = evaluation;
  return h('dl', { class: 'agentloop-facts', 'data-evaluation': evaluation.id },
    fact('Candidate', candidateText(evaluation)),
    fact('Status', h('span', { 'data-evaluation-status': evaluation.status }, statusText(evaluation))),
    fact('Started', `${time(evaluation.createdAt)} by ${evaluation.createdBy}`),
    evaluation.reason ? fact('Why', h('span', { class: 'agentloop-why' }, evaluation.reason)) : null,
    fact('Cases', h('span', { 'data-evaluation-summary': '' }, summaryText(summary))),
    fact('Recorded runs used', h('span', { 'data-use': 'recorded' },
      useText({ ...summary.recorded, currency: summary.currency }))),
    fact('Candidate used', h('span', { 'data-use': 'candidate' },
      useText({ ...summary.candidate, currency: summary.currency }))),
    judgeText(summary.judge, summary.currency) ? fact('This evaluation\'s own cost',
      h('span', { 'data-use': 'judge' }, judgeText(summary.judge, summary.currency))) : null,
    evaluation.promotion?.reason ? fact('Promoted because', evaluation.promotion.reason) : null);
}

/** The answers side by side: what the candidate no longer says struck out on the left, what it says anew on the right. */
function answers(recorded, candidate) {
  const parts = answerDiff(recorded?.answer, candidate?.answer);
  const side = (kinds, tag, which) => h('div', { class: 'agentloop-text agentloop-diff', 'data-answer': which },
    parts.filter(part => kinds.includes(part.kind))
      .map(part => part.kind === 'same' ? part.text : h(tag, { class: `agentloop-diff-${part.kind}` }, part.text)));
  return [recorded ? side(['same', 'del'], 'del', 'recorded') : h('div', { class: 'text-muted' }, 'no recorded answer'),
    candidate ? side(['same', 'ins'], 'ins', 'candidate')
      : h('div', { class: 'text-muted' }, 'the candidate gave no answer')];
}

function outcome(side) {
  if (!side) {
    return '–';
  }
  return [h('span', { class: `agentloop-run-status agentloop-status-${side.outcome.toLowerCase()}` }, side.outcome),
    side.statusReason ? h('div', { class: 'text-muted' }, side.statusReason) : null];
}

function fields(recorded, candidate) {
  const rows = fieldRows(recorded?.answerData, candidate?.answerData);
  if (!rows.length) {
    return null;
  }
  return h('table', { class: 'table table-condensed agentloop-eval-fields' },
    h('thead', {}, h('tr', {}, ['Field', 'Recorded', 'Candidate'].map(label => h('th', {}, label)))),
    h('tbody', {}, rows.map(row => h('tr', { 'data-field-row': row.name, class: row.same ? '' : 'agentloop-eval-differs' },
      h('td', {}, row.name), h('td', {}, h('code', {}, row.recorded ?? '–')),
      h('td', {}, h('code', {}, row.candidate ?? '–'))))));
}

function sideBySide(result) {
  const { recorded, candidate } = result;
  const [left, right] = answers(recorded, candidate);
  const row = (name, a, b, key) => h('tr', { 'data-row': key }, h('th', {}, name), h('td', {}, a), h('td', {}, b));
  const use = side => side ? useText(side) : '–';
  // a candidate's run is its evaluation's, readable by nobody: its id only, for the logs
  const run = (side, link) => !side?.runId ? '–' : link ? runLink(side.runId)
    : h('span', { class: 'text-muted', title: 'the candidate\'s run: its trace is the evaluation\'s, not shown' },
      side.runId);
  return h('table', { class: 'table agentloop-eval-sides' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Recorded'), h('th', {}, 'Candidate'))),
    h('tbody', {},
      row('Answer', left, right, 'answer'),
      row('Outcome', outcome(recorded), outcome(candidate), 'outcome'),
      row('Used', use(recorded), use(candidate), 'use'),
      row('Run', run(recorded, true), run(candidate, false), 'run')));
}

function checks(result) {
  if (!result.checks.length) {
    return null;
  }
  return h('ul', { class: 'agentloop-eval-checks' }, result.checks.map(check => h('li', {
    class: check.passed ? 'agentloop-check-passed' : 'agentloop-check-failed', 'data-check': check.name },
  h('strong', {}, `${check.passed ? '✔' : '✘'} ${check.name}`), ' ', check.detail,
  check.reasoning ? h('div', { class: 'agentloop-why' }, check.reasoning) : null)));
}

function marks(result) {
  return [result.error ? h('div', { class: 'alert alert-warning', 'data-case-error': '' }, result.error) : null,
    result.marks.length ? h('ul', { class: 'agentloop-eval-marks' },
      result.marks.map(mark => h('li', { 'data-mark': '' }, mark))) : null,
    judgeText(result.judge) ? h('div', { class: 'text-muted' }, judgeText(result.judge)) : null];
}

function caseTitle(item) {
  if (item.recordedRun) {
    return ['recorded run ', runLink(item.recordedRun)];
  }
  return ['data set: ', h('span', { class: 'agentloop-question' }, item.dataCase?.question ?? '')];
}

/** One case: its verdict, both sides, its checks and marks. */
export function caseView(item) {
  return h('section', { class: 'agentloop-eval-case', 'data-case': item.caseNo },
    h('h5', {}, `Case ${item.caseNo} · `, caseTitle(item), ' ', verdictLabel(item)),
    item.result ? [sideBySide(item.result), fields(item.result.recorded, item.result.candidate), checks(item.result),
      marks(item.result)] : h('p', { class: 'text-muted' }, item.status === 'QUEUED' ? 'waits for its turn'
      : 'runs now'));
}
