// A run's trace: the active path (what the model sees), and at each place where a person changed
// it the superseded branch, collapsed, beside the step that replaced it.
import { h, json, time } from './dom.js';

const KIND_LABELS = {
  PLAN: 'Plan', THOUGHT: 'Thought', ACTION: 'Action', OBSERVATION: 'Observation',
  HUMAN_INPUT: 'Human input', FINAL_ANSWER: 'Final answer'
};

export function kindLabel(kind) {
  return KIND_LABELS[kind] || kind;
}

/** What a step says, readably, by kind (content shapes as in GET /api/runs/{id}/trace). */
export function stepContent(step) {
  const c = step.content || {};
  switch (step.kind) {
    case 'PLAN':
      return h('ol', { class: 'agentloop-plan-steps' }, (c.steps || []).map(line => h('li', {}, line)));
    case 'THOUGHT':
    case 'HUMAN_INPUT':
    case 'FINAL_ANSWER':
      return h('div', { class: 'agentloop-text' }, c.text);
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

/** A reasoning model's thinking, folded: it is kept with the step but never part of its text. */
function reasoning(step) {
  const text = (step.content || {}).reasoning;
  return text && h('details', { class: 'agentloop-reasoning' },
    h('summary', {}, `Reasoning (${text.length} characters)`),
    h('div', { class: 'agentloop-text' }, text));
}

function stepRow(step, extra) {
  const superseded = step.status === 'SUPERSEDED';
  return h('li', {
    class: `agentloop-step agentloop-${step.kind.toLowerCase()}${superseded ? ' agentloop-superseded' : ''}`,
    'data-step': step.id, 'data-kind': step.kind, 'data-status': step.status
  },
  h('div', { class: 'agentloop-step-head' },
    h('span', { class: 'agentloop-step-no' }, `#${step.id}`),
    h('span', { class: 'agentloop-kind' }, kindLabel(step.kind)),
    h('span', { class: 'agentloop-turn' }, `turn ${step.turn}`),
    superseded && h('span', { class: 'label label-default agentloop-status' }, 'superseded'),
    h('span', { class: 'agentloop-author', title: 'author' }, step.author),
    h('span', { class: 'agentloop-time' }, time(step.createdAt)),
    h('span', { class: 'agentloop-step-actions' }, extra ? extra(step) : null)),
  (step.supersedes !== null && step.supersedes !== undefined || step.reason) && h('div', { class: 'agentloop-reason' },
    step.supersedes !== null && step.supersedes !== undefined ? `replaces #${step.supersedes}` : null,
    step.supersedes !== null && step.supersedes !== undefined && step.reason ? ': ' : null,
    step.reason ? `“${step.reason}”` : null),
  h('div', { class: 'agentloop-content' }, stepContent(step)),
  reasoning(step),
  h('div', { class: 'agentloop-step-slot' }));
}

/**
 * Groups the steps off the active path into branches: each branch is the subtree below one step
 * whose parent is on the path (or that has none).
 */
function branches(activeSteps, allSteps) {
  const onPath = new Set(activeSteps.map(s => s.id));
  const byId = new Map(allSteps.map(s => [s.id, s]));
  const groups = new Map();
  for (const step of allSteps) {
    if (onPath.has(step.id)) {
      continue;
    }
    let root = step;
    while (root.parent !== null && root.parent !== undefined && !onPath.has(root.parent) && byId.has(root.parent)) {
      root = byId.get(root.parent);
    }
    if (!groups.has(root.id)) {
      groups.set(root.id, { root, steps: [] });
    }
    groups.get(root.id).steps.push(step);
  }
  return [...groups.values()].map(group => ({ ...group, steps: group.steps.sort((a, b) => a.id - b.id) }));
}

/** Where a branch shows: before the step that replaced its root, else after its fork point. */
function placeBranches(activeSteps, groups) {
  const before = new Map();
  const after = new Map();
  for (const group of groups) {
    const replacement = activeSteps.find(s => s.supersedes === group.root.id);
    const [map, key] = replacement ? [before, replacement.id] : [after, group.root.parent ?? 'top'];
    map.set(key, [...(map.get(key) || []), group]);
  }
  return { before, after };
}

function branchView(group) {
  const count = group.steps.length;
  return h('li', { class: 'agentloop-branch', 'data-branch': group.root.id },
    h('details', {},
      h('summary', {}, `Superseded branch from #${group.root.id}: ${count} step${count === 1 ? '' : 's'}`),
      h('ol', { class: 'agentloop-steps' }, group.steps.map(step => stepRow(step)))));
}

/**
 * The trace as a list; `stepActions(step)` gives the controls for a step of the active path,
 * and each step has an empty `.agentloop-step-slot` for a form under it.
 */
export function traceView(activeSteps, allSteps, stepActions) {
  const { before, after } = placeBranches(activeSteps, branches(activeSteps, allSteps || activeSteps));
  const items = [...(after.get('top') || []).map(branchView)];
  for (const step of activeSteps) {
    items.push(...(before.get(step.id) || []).map(branchView));
    items.push(stepRow(step, stepActions));
    items.push(...(after.get(step.id) || []).map(branchView));
  }
  return items.length
    ? h('ol', { class: 'agentloop-steps agentloop-active-path' }, items)
    : h('p', { class: 'agentloop-empty' }, 'No steps yet.');
}
