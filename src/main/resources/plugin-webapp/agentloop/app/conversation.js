// A run's trace read as a conversation: its turns (a question, the steps that led to the answer, the
// answer) and, beside the turn where it forked, each superseded branch that held an answer or a later
// turn: what a regenerated turn or an edit took off the path. Pure functions (no DOM), so Node's test
// runner loads them (tools/plugin-tests/); conversation-view.js draws them.
import { duration } from './words.js';

/** Whether a step is a follow-up question: a person's step that opened the next turn. */
export function isFollowUp(step) {
  return step.kind === 'HUMAN_INPUT' && Boolean(step.content && step.content.followUp);
}

/** Splits a chain of steps into turns, numbered from `first`; the first turn goes on the question before the chain. */
function splitTurns(steps, first, question) {
  const turns = [{ number: first, question, questionStep: null, continued: true, steps: [], answers: [] }];
  for (const step of steps) {
    if (isFollowUp(step)) {
      turns.push({ number: turns[turns.length - 1].number + 1, question: step.content.text, questionStep: step,
        continued: false, steps: [], answers: [] });
    } else if (step.kind === 'FINAL_ANSWER') {
      turns[turns.length - 1].answers.push(step);
    } else {
      turns[turns.length - 1].steps.push(step);
    }
  }
  // a turn's answer is its newest one; an earlier answer on the same path (feedback, resend) is one of its steps
  return turns.map(({ answers, ...turn }) => ({
    ...turn,
    answer: answers.length ? answers[answers.length - 1] : null,
    steps: [...turn.steps, ...answers.slice(0, -1)].sort((a, b) => a.id - b.id)
  }));
}

/**
 * The conversation of a run: `turns` of the active path, oldest first, each {number, question,
 * questionStep (null for the run's question), steps (the steps of the turn but its question and answer),
 * answer (a step or null), branches}; a turn's `branches` are the superseded branches that forked in it
 * and hold an answer or a follow-up, each {fork (the step it forked from, or null at the root), root
 * (its first step), replacedBy (the step that superseded the root, if any), turns (split as above, the
 * first one `continued`: the turn it forked in)}. `question` is the run's question.
 */
export function conversation(question, active, all) {
  const turns = splitTurns(active, 1, question);
  turns[0].continued = false;
  const turnOf = new Map();
  for (const turn of turns) {
    for (const step of [turn.questionStep, ...turn.steps, turn.answer].filter(Boolean)) {
      turnOf.set(step.id, turn);
    }
  }
  for (const turn of turns) {
    turn.branches = [];
  }
  const onPath = new Set(active.map(step => step.id));
  const byId = new Map((all || []).map(step => [step.id, step]));
  const groups = new Map();
  for (const step of (all || []).filter(s => !onPath.has(s.id)).sort((a, b) => a.id - b.id)) {
    let root = step;
    while (root.parent !== null && root.parent !== undefined && !onPath.has(root.parent) && byId.has(root.parent)) {
      root = byId.get(root.parent);
    }
    groups.set(root.id, [...(groups.get(root.id) || []), step]);
  }
  for (const [rootId, steps] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
    if (!steps.some(step => step.kind === 'FINAL_ANSWER' || isFollowUp(step))) {
      continue;
    }
    const root = byId.get(rootId);
    const fork = root.parent !== null && root.parent !== undefined ? byId.get(root.parent) || null : null;
    const forkTurn = (fork && turnOf.get(fork.id)) || turns[0];
    const replacedBy = (all || []).find(step => step.supersedes === rootId) || null;
    forkTurn.branches.push({ fork, root, replacedBy, turns: splitTurns(steps, forkTurn.number, forkTurn.question) });
  }
  return turns;
}

/** What a turn cost (a turn of GET /api/runs/{id}: its `costs`), in one line; null when it made no call. */
export function turnCostText(costs) {
  if (!costs) {
    return null;
  }
  const known = value => value !== null && value !== undefined;
  const tokens = known(costs.promptTokens) || known(costs.completionTokens)
    ? `${((costs.promptTokens ?? 0) + (costs.completionTokens ?? 0)).toLocaleString('en-US')} tokens`
    + ` (${costs.promptTokens ?? 0} prompt + ${costs.completionTokens ?? 0} completion)`
    : null;
  const parts = [tokens,
    costs.modelLatencyMillis ? `model ${duration(costs.modelLatencyMillis)}` : null,
    costs.toolLatencyMillis ? `tools ${duration(costs.toolLatencyMillis)}` : null,
    costs.modelCallsWithoutUsage
      ? `${costs.modelCallsWithoutUsage} call${costs.modelCallsWithoutUsage === 1 ? '' : 's'} without token counts` : null]
    .filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * The turns of the active path (as `conversation` gives them) an operator may redo from the conversation:
 * each with an answer but the newest, whose redo is the run's "Regenerate answer". Their numbers, oldest first.
 */
export function redoableTurns(turns) {
  return turns.slice(0, -1).filter(turn => turn.answer).map(turn => turn.number);
}

/**
 * The number of the turn of the active path that holds the step, when it is not the newest turn (an edit
 * there may ask the later questions again); otherwise null.
 */
export function earlierTurnOf(turns, stepId) {
  const turn = turns.find(t => [t.questionStep, ...t.steps, t.answer].some(step => step && step.id === stepId));
  return turn && turn !== turns[turns.length - 1] ? turn.number : null;
}

/** The body of POST /api/runs/{id}/regenerate that redoes turn `turn`; a blank reason is left out. */
export function regenerateTurnBody(turn, replayLaterTurns, reason) {
  if (!Number.isInteger(turn) || turn < 1) {
    throw new Error(`turn must be a turn number, from 1, not ${JSON.stringify(turn)}`);
  }
  const why = typeof reason === 'string' ? reason.trim() : '';
  return { turn, replayLaterTurns: replayLaterTurns === true, ...(why ? { reason: why } : {}) };
}

/** What the operator reads after redoing turn `turn`. */
export function turnRedoneMessage(turn, replayLaterTurns) {
  return `Turn ${turn} is being redone on a new branch; the later turns stay on the old branch beside it`
    + (replayLaterTurns ? ', and their questions are asked again on the new one, in order.'
      : ', and are not asked again.');
}
