// node --test tools/plugin-tests/ (npm run test:plugin): a run's trace read as a conversation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conversation, earlierTurnOf, isFollowUp, redoableTurns, regenerateTurnBody, turnCostText,
  turnRedoneMessage }
  from '../../src/main/resources/plugin-webapp/agentloop/app/conversation.js';

const step = (id, parent, kind, text, extra = {}) =>
  ({ id, parent, kind, status: 'ACTIVE', author: 'model', content: { text }, ...extra });
const followUp = (id, parent, text, author) =>
  step(id, parent, 'HUMAN_INPUT', text, { author, content: { text, followUp: true } });
const superseded = s => ({ ...s, status: 'SUPERSEDED' });
const ids = steps => steps.map(s => s.id);

// three turns: #1 plan, #2 answer | #3 follow-up, #4 plan, #5 answer | #6 follow-up, #7 plan, #8 answer
const threeTurns = () => [step(1, null, 'PLAN', 'p1'), step(2, 1, 'FINAL_ANSWER', 'a1'),
  followUp(3, 2, 'q2', 'ana'), step(4, 3, 'PLAN', 'p2'), step(5, 4, 'FINAL_ANSWER', 'a2'),
  followUp(6, 5, 'q3', 'ben'), step(7, 6, 'PLAN', 'p3'), step(8, 7, 'FINAL_ANSWER', 'a3')];

test('a run nobody changed is one turn per question, each with its steps and its answer', () => {
  const path = threeTurns();
  const turns = conversation('q1', path, path);
  assert.deepEqual(turns.map(t => [t.number, t.question, t.questionStep?.id ?? null, ids(t.steps), t.answer.id]),
    [[1, 'q1', null, [1], 2], [2, 'q2', 3, [4], 5], [3, 'q3', 6, [7], 8]]);
  assert.deepEqual(turns.map(t => t.branches.length), [0, 0, 0]);
  assert.equal(isFollowUp(path[2]), true);
  assert.equal(isFollowUp(step(9, 8, 'HUMAN_INPUT', 'a note')), false);
});

test('a regenerated turn 2 shows its old answer and the old turn 3 beside it, and turn 3 asked again', () => {
  // turn 2 regenerated from #4 with turn 3 asked again: #9 new answer, #10 follow-up again, #11 plan, #12 answer
  const old = threeTurns();
  const all = [...old.slice(0, 4), ...old.slice(4).map(superseded),
    step(9, 4, 'FINAL_ANSWER', 'a2 again', { supersedes: 5, reason: 'the tool was down', author: 'model' }),
    followUp(10, 9, 'q3', 'ben'), step(11, 10, 'PLAN', 'p3'), step(12, 11, 'FINAL_ANSWER', 'a3 again')];
  const active = all.filter(s => s.status === 'ACTIVE');
  const turns = conversation('q1', active, all);
  assert.deepEqual(turns.map(t => [t.number, t.question, t.answer.content.text]),
    [[1, 'q1', 'a1'], [2, 'q2', 'a2 again'], [3, 'q3', 'a3 again']]);
  assert.deepEqual(turns.map(t => t.branches.length), [0, 1, 0]);
  const branch = turns[1].branches[0];
  assert.equal(branch.fork.id, 4);
  assert.equal(branch.root.id, 5);
  assert.equal(branch.replacedBy.id, 9);
  // the branch goes on turn 2 (its old answer), then holds the old turn 3 whole
  assert.deepEqual(branch.turns.map(t => [t.number, t.continued, t.question, t.answer?.content.text, ids(t.steps)]),
    [[2, true, 'q2', 'a2', []], [3, false, 'q3', 'a3', [7]]]);
});

test('a branch without an answer or a question (an edited thought) is left to the step tree', () => {
  const all = [step(1, null, 'PLAN', 'p'), superseded(step(2, 1, 'THOUGHT', 'old')),
    step(3, 1, 'THOUGHT', 'new', { supersedes: 2 }), step(4, 3, 'FINAL_ANSWER', 'a')];
  const turns = conversation('q', all.filter(s => s.status === 'ACTIVE'), all);
  assert.equal(turns.length, 1);
  assert.deepEqual(turns[0].branches, []);
  assert.deepEqual(ids(turns[0].steps), [1, 3]);
});

test('earlier answers on the path (feedback) are steps of the turn; the newest is its answer; a turn under way has none', () => {
  const path = [step(1, null, 'PLAN', 'p'), step(2, 1, 'FINAL_ANSWER', 'first'),
    step(3, 2, 'HUMAN_INPUT', 'shorter please', { author: 'rita' }), step(4, 3, 'FINAL_ANSWER', 'second'),
    followUp(5, 4, 'and then?', 'rita'), step(6, 5, 'PLAN', 'p2')];
  const turns = conversation('q', path, path);
  assert.deepEqual(ids(turns[0].steps), [1, 2, 3]);
  assert.equal(turns[0].answer.content.text, 'second');
  assert.equal(turns[1].answer, null);
  assert.deepEqual(ids(turns[1].steps), [6]);
});

test('a turn\'s cost in one line; none when it made no call', () => {
  assert.equal(turnCostText({ modelLatencyMillis: 1200, toolLatencyMillis: 400, promptTokens: 1000, completionTokens: 234,
    modelCallsWithoutUsage: 1 }), '1,234 tokens (1000 prompt + 234 completion) · model 1.2 s · tools 0.4 s · 1 call without token counts');
  assert.equal(turnCostText({ modelLatencyMillis: 0, toolLatencyMillis: 0, promptTokens: null, completionTokens: null,
    modelCallsWithoutUsage: 0 }), null);
  assert.equal(turnCostText(undefined), null);
});

test('every answered turn but the newest offers a redo; the newest is the run\'s "Regenerate answer"', () => {
  const path = threeTurns();
  assert.deepEqual(redoableTurns(conversation('q1', path, path)), [1, 2]);
  // turn 3 under way (no answer yet): turns 1 and 2 still offer it, turn 3 does not
  assert.deepEqual(redoableTurns(conversation('q1', path.slice(0, 7), path.slice(0, 7))), [1, 2]);
  // a run of one question offers none, with or without its answer
  assert.deepEqual(redoableTurns(conversation('q', path.slice(0, 2), path.slice(0, 2))), []);
  assert.deepEqual(redoableTurns(conversation('q', path.slice(0, 1), path.slice(0, 1))), []);
});

test('a step in an earlier turn is found in its turn; the newest turn\'s steps and unknown steps are not', () => {
  const path = threeTurns();
  const turns = conversation('q1', path, path);
  assert.equal(earlierTurnOf(turns, 1), 1);
  assert.equal(earlierTurnOf(turns, 3), 2);
  assert.equal(earlierTurnOf(turns, 4), 2);
  assert.equal(earlierTurnOf(turns, 7), null);
  assert.equal(earlierTurnOf(turns, 99), null);
  assert.equal(earlierTurnOf([], 1), null);
});

test('the redo body names the turn and the choice, and leaves a blank reason out', () => {
  assert.deepEqual(regenerateTurnBody(1, true, ' the tool was down '),
    { turn: 1, replayLaterTurns: true, reason: 'the tool was down' });
  assert.deepEqual(regenerateTurnBody(2, false, '  '), { turn: 2, replayLaterTurns: false });
  // anything but true is "do not ask again": never replay by accident
  assert.deepEqual(regenerateTurnBody(2, 'yes', undefined), { turn: 2, replayLaterTurns: false });
  for (const bad of [0, -1, 1.5, '1', null, undefined]) {
    assert.throws(() => regenerateTurnBody(bad, true, 'r'), /turn must be a turn number, from 1/);
  }
});

test('the confirmation says whether the later questions are asked again', () => {
  assert.match(turnRedoneMessage(1, true), /^Turn 1 is being redone on a new branch.*asked again on the new one/);
  assert.match(turnRedoneMessage(2, false), /are not asked again\.$/);
});
