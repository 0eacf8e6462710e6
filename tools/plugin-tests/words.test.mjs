// node --test tools/plugin-tests/ (npm run test:plugin): the Cockpit plugin's words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callLabel, costText, currentTurn, duration, elapsed, resumedMessage, runCostText, waitingText }
  from '../../src/main/resources/plugin-webapp/agentloop/app/words.js';

test('durations read as a person says them, never as hundreds of seconds', () => {
  assert.equal(duration(420), '0.4 s');
  assert.equal(duration(2500), '2.5 s');
  assert.equal(duration(40_000), '40 s');
  assert.equal(duration(125_000), '2 min 5 s');
  assert.equal(duration(120_000), '2 min');
  assert.equal(duration(923_000), '15 min');
  assert.equal(duration((2 * 3600 + 5 * 60 + 12) * 1000), '2 h 5 min');
  assert.equal(duration(3 * 3600 * 1000), '3 h');
  assert.equal(duration((3 * 24 + 4) * 3600 * 1000), '3 d 4 h');
});

test('an unknown or impossible duration is a dash, not NaN', () => {
  assert.equal(duration(null), '–');
  assert.equal(duration(undefined), '–');
  assert.equal(duration(-5), '–');
  assert.equal(duration(Number.NaN), '–');
});

test('a wait counts on in whole seconds, then in minutes', () => {
  assert.equal(elapsed(3), '3 s');
  assert.equal(elapsed(923), '15 min');
  assert.equal(elapsed(0), '0 s');
});

test('a step costs what its call cost, and says when the endpoint reported no tokens', () => {
  assert.equal(costText({ modelCall: true, latencyMillis: 1200, promptTokens: 120, completionTokens: 30 }),
    'model call 1.2 s · 120 prompt + 30 completion tokens');
  assert.equal(costText({ modelCall: true, latencyMillis: 800, promptTokens: null, completionTokens: null, totalTokens: 99 }),
    'model call 0.8 s · 99 tokens');
  assert.equal(costText({ modelCall: true, latencyMillis: 800, promptTokens: null, completionTokens: null, totalTokens: null }),
    'model call 0.8 s · tokens not reported by the endpoint');
  assert.equal(costText({ modelCall: false, latencyMillis: 61_000 }), 'tool call 1 min 1 s');
  assert.equal(costText(null), null);
});

test('the list of runs says what a run cost', () => {
  assert.equal(runCostText({ tokens: 1234, modelCalls: 3, toolCalls: 2 }), '1,234 tokens · 3 model calls · 2 tool calls');
  assert.equal(runCostText({ tokens: 0, modelCalls: 1, toolCalls: 0 }), 'tokens not reported · 1 model call');
  assert.equal(runCostText({ tokens: 0, modelCalls: 0, toolCalls: 0 }), '0 model calls');
});

test('the list of runs says what a waiting run waits on', () => {
  assert.equal(waitingText({ activeStep: { kind: 'person', activityName: 'Review the answer' }, waitingFor: ['reviewAnswer'] }),
    'waiting: Review the answer');
  assert.equal(waitingText({ activeStep: null, waitingFor: ['approveAction', 'approveAction'] }), 'waiting: Approve the action');
  assert.equal(waitingText({ activeStep: null, waitingFor: ['someOtherTask'] }), 'waiting: someOtherTask');
  assert.equal(waitingText({ activeStep: { kind: 'model' }, waitingFor: [] }), null);
});

test('an edit says what replaced what, where the run goes on, and what cannot be undone', () => {
  assert.equal(resumedMessage({ newStep: 9, editedStep: 4, continuesAt: 'think', superseded: [4, 5], sideEffects: [] }),
    'Step #9 replaces #4; the agent thinks again from there. Superseded: #4, #5.');
  assert.equal(resumedMessage({ newStep: 9, editedStep: 3, continuesAt: 'somewhere', superseded: [],
    sideEffects: [{ tool: 'send_email', arguments: { to: 'a@b.c' }, step: 5 }] }),
  'Step #9 replaces #3; the run continues at somewhere. Side effects on the superseded branch (they happened and are'
    + ' not undone): send_email {"to":"a@b.c"} at #5.');
});

test('a step names the model call it came from as a call, never as a turn', () => {
  assert.equal(callLabel({ kind: 'THOUGHT', turn: 3 }), 'call 3');
  assert.equal(callLabel({ kind: 'OBSERVATION', turn: 3 }), 'call 3');
  assert.equal(callLabel({ kind: 'PLAN', turn: 2 }), null);
  assert.equal(callLabel({ kind: 'HUMAN_INPUT', turn: 0 }), null);
  // a follow-up question after call 1 opens the next turn: no call of its own
  assert.equal(callLabel({ kind: 'HUMAN_INPUT', turn: 1, content: { text: 'and?', followUp: true } }), null);
  assert.equal(callLabel({ kind: 'HUMAN_INPUT', turn: 2, content: { text: 'yes' } }), 'call 2');
});

test('the status block shows the current turn\'s question and calls an answer final only once accepted', () => {
  const turn = (number, question, answer, status) => ({ number, question, answer, status });
  // a one-shot run whose answer waits for review
  assert.deepEqual(currentTurn({ question: 'Q1', status: 'WAITING', waitingFor: ['reviewAnswer'], finalAnswer: 'A1',
    turns: [turn(1, 'Q1', 'A1', 'IN_PROGRESS')] }),
  { questionLabel: 'Question', question: 'Q1', answerLabel: 'Answer (waiting for review)', answer: 'A1' });
  // the same run once accepted
  assert.deepEqual(currentTurn({ question: 'Q1', status: 'ANSWERED', waitingFor: [], finalAnswer: 'A1',
    turns: [turn(1, 'Q1', 'A1', 'ANSWERED')] }),
  { questionLabel: 'Question', question: 'Q1', answerLabel: 'Final answer', answer: 'A1' });
  // a conversation at work on its third question: turn 2's answer is not turn 3's
  assert.deepEqual(currentTurn({ question: 'Q1', status: 'RUNNING', waitingFor: [], finalAnswer: 'A2',
    turns: [turn(1, 'Q1', 'A1', 'ANSWERED'), turn(2, 'Q2', 'A2', 'ANSWERED'), turn(3, 'Q3', null, 'IN_PROGRESS')] }),
  { questionLabel: 'Question (turn 3)', question: 'Q3', answerLabel: null, answer: null });
  // waiting for its next question, the answer accepted; a run stopped before its answer was accepted
  assert.equal(currentTurn({ status: 'WAITING', waitingFor: ['follow-up'],
    turns: [turn(1, 'Q1', 'A1', 'ANSWERED'), turn(2, 'Q2', 'A2', 'ANSWERED')] }).answerLabel, 'Answer (accepted)');
  assert.equal(currentTurn({ status: 'STOPPED', waitingFor: [], turns: [turn(1, 'Q1', 'A1', 'UNANSWERED')] })
    .answerLabel, 'Last answer (not accepted)');
  // a view without turns (an older server) falls back on the run's question and answer
  assert.deepEqual(currentTurn({ question: 'Q1', status: 'ANSWERED', finalAnswer: 'A1' }),
    { questionLabel: 'Question', question: 'Q1', answerLabel: 'Final answer', answer: 'A1' });
});
