// A run's trace: the active path (what the model sees), and at each place where a person changed
// it the superseded branch, collapsed, beside the step that replaced it.
import { clear, h, json, time } from './dom.js';
import { edits, stepTree } from './step-tree.js';
import { callLabel, costText, duration, kindLabel } from './words.js';
import { stepCostText } from './cost-words.js';

export { costText, duration, kindLabel };

/** What a step says, readably, by kind (content shapes as in GET /api/runs/{id}/trace). */
export function stepContent(step) {
  const c = step.content || {};
  switch (step.kind) {
    case 'PLAN':
      return h('ol', { class: 'agentloop-plan-steps' }, (c.steps || []).map(line => h('li', {}, line)));
    case 'THOUGHT':
    case 'HUMAN_INPUT':
      return h('div', { class: 'agentloop-text' }, c.text);
    case 'FINAL_ANSWER':
      return c.data ? answerFields(c.data) : h('div', { class: 'agentloop-text' }, c.text);
    case 'ACTION':
      return h('div', {},
        h('code', { class: 'agentloop-tool' }, c.tool), ' ',
        h('pre', { class: 'agentloop-json' }, json(c.arguments)));
    case 'OBSERVATION':
      return h('div', {},
        h('code', { class: 'agentloop-tool' }, c.tool), ' → ',
        'error' in c
          ? h('span', { class: 'agentloop-error' }, 'error: ', c.error)
          : h('span', { class: 'agentloop-text' }, typeof c.result === 'string' ? c.result : json(c.result)));
    default:
      return h('pre', { class: 'agentloop-json' }, json(c));
  }
}

/**
 * An answer's fields (answerData of a run or a turn, data of a final answer step), one row each: a text as it is,
 * anything else as its JSON. Text nodes only, like everything a model wrote.
 */
export function answerFields(data) {
  if (!data || typeof data !== 'object') {
    return null;
  }
  return h('table', { class: 'table table-condensed agentloop-answer-fields' }, h('tbody', {},
    Object.entries(data).map(([name, value]) => h('tr', { 'data-field': name },
      h('th', {}, name), h('td', { class: 'agentloop-text' }, typeof value === 'string' ? value : json(value))))));
}

/** A reasoning model's thinking, folded: it is kept with the step but never part of its text. */
function reasoning(step) {
  const text = (step.content || {}).reasoning;
  return text && h('details', { class: 'agentloop-reasoning' },
    h('summary', {}, `Reasoning (${text.length} characters)`),
    h('div', { class: 'agentloop-text' }, text));
}

/** Provider words for a reply cut at its output limit (OpenAI, Anthropic, LangChain4j). */
const CUT = ['length', 'max_tokens'];

/** Why the model stopped writing this step; a cut reply stands out, as it was not used. */
function stopReason(step) {
  const reason = (step.content || {}).stopReason;
  if (!reason) {
    return null;
  }
  return CUT.includes(reason)
    ? h('span', { class: 'label label-warning agentloop-stop', title: 'the reply hit its output limit and was not used' },
      `cut: ${reason}`)
    : h('span', { class: 'agentloop-stop text-muted', title: 'why the model stopped writing' }, reason);
}

/** What a decision did, in words: the values are those of the review forms and the API. */
const DECIDED = {
  accept: 'accepted', revise: 'sent back', reject: 'rejected', regenerate: 'regenerated', feedback: 'answered with feedback',
  edit: 'edited', guide: 'guided', retry: 'had the calls run again', stop: 'stopped the run', migrate: 'moved the run'
};

/** The trace's steps, each with the decisions made on it without a step of their own (accepted, regenerated …). */
export function decidedSteps(trace) {
  const decisions = trace.decisions || [];
  return trace.steps.map(step => ({ ...step, decisions: decisions.filter(d => d.stepNo === step.id) }));
}

function decisions(step) {
  return step.decisions && step.decisions.length ? h('ul', { class: 'agentloop-decisions' },
    step.decisions.map(d => h('li', { 'data-decision': d.decision },
      `${d.author} ${DECIDED[d.decision] || d.decision}`,
      d.toVersion ? ` from version ${d.fromVersion} to version ${d.toVersion} of its agent` : null,
      ` · ${time(d.decidedAt)}`,
      d.reason ? ` — “${d.reason}”` : null))) : null;
}

export function stepRow(step, extra, onPrompt) {
  const superseded = step.status === 'SUPERSEDED';
  const cost = stepCostText(step.cost, step.money);
  return h('li', {
    class: `agentloop-step agentloop-${step.kind.toLowerCase()}${superseded ? ' agentloop-superseded' : ''}`,
    'data-step': step.id, 'data-kind': step.kind, 'data-status': step.status
  },
  h('div', { class: 'agentloop-step-head' },
    h('span', { class: 'agentloop-step-no' }, `#${step.id}`),
    h('span', { class: 'agentloop-kind' }, kindLabel(step.kind)),
    callLabel(step) && h('span', { class: 'agentloop-call', title: 'the model call of the run it came from' },
      callLabel(step)),
    superseded && h('span', { class: 'label label-default agentloop-status' }, 'superseded'),
    h('span', { class: 'agentloop-author', title: 'author' }, step.author),
    h('span', { class: 'agentloop-time' }, time(step.createdAt)),
    cost && h('span', { class: 'agentloop-cost', 'data-cost': step.id }, cost),
    stopReason(step),
    h('span', { class: 'agentloop-step-actions' },
      step.prompt && onPrompt && h('button', { class: 'btn btn-xs btn-link', type: 'button', 'data-action': 'prompt',
        title: 'the messages the model received in this call', onclick: event => onPrompt(step, event.target.closest('.agentloop-step')) },
      'Prompt'),
      extra ? extra(step) : null)),
  (step.supersedes !== null && step.supersedes !== undefined || step.reason) && h('div', { class: 'agentloop-reason' },
    step.supersedes !== null && step.supersedes !== undefined ? `replaces #${step.supersedes}` : null,
    step.supersedes !== null && step.supersedes !== undefined && step.reason ? ': ' : null,
    step.reason ? `“${step.reason}”` : null),
  h('div', { class: 'agentloop-content' }, stepContent(step)),
  reasoning(step),
  decisions(step),
  h('div', { class: 'agentloop-step-slot' }));
}

/**
 * The trace: when people changed the run, its step tree as a picture (superseded branches beside
 * the step they branched from, the edits as old → new) with the step picked in it; then the active
 * path as a list. `stepActions(step)` gives the controls for a step of the active path, and each step
 * has an empty `.agentloop-step-slot` for a form under it; `onPrompt(step, row)` shows a prompt.
 */
export function traceView(activeSteps, allSteps, stepActions, onPrompt) {
  // every step of the active path is one of all steps, even when `all` was read a moment earlier
  const known = new Set((allSteps || []).map(step => step.id));
  const all = [...(allSteps || []), ...activeSteps.filter(step => !known.has(step.id))];
  if (!activeSteps.length) {
    return h('p', { class: 'agentloop-empty' }, 'No steps yet.');
  }
  const path = h('ol', { class: 'agentloop-steps agentloop-active-path' },
    activeSteps.map(step => stepRow(step, stepActions, onPrompt)));
  if (all.length === activeSteps.length) {
    return path;
  }
  const picked = h('ol', { class: 'agentloop-steps agentloop-picked' });
  const select = step => {
    if (step.status === 'ACTIVE') {
      clear(picked);
      path.querySelector(`li[data-step="${step.id}"]`)?.scrollIntoView({ block: 'center' });
    } else {
      clear(picked, stepRow(step, null, onPrompt));
    }
  };
  return h('div', { class: 'agentloop-trace-parts' },
    h('div', { class: 'agentloop-tree-box' },
      h('p', { class: 'text-muted' }, 'Step tree: the active path on the left, superseded branches beside the step they branched from. Pick a step to read it.'),
      stepTree(activeSteps, all, select), edits(all), picked),
    path);
}
