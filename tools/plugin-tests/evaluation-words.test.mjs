// node --test tools/plugin-tests/ (npm run test:plugin): an evaluation in words, and a new one's body from the form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerDiff, evaluationBody, fieldRows, judgeText, summaryText, useText }
  from '../../src/main/resources/plugin-webapp/agentloop/app/evaluation-words.js';

const joined = (parts, kinds) => parts.filter(p => kinds.includes(p.kind)).map(p => p.text).join('');

test('the answers\' diff keeps the words that stay and shows what went and came', () => {
  const parts = answerDiff('The apples cost 3 EUR.', 'The apples cost 7 EUR.');
  assert.deepEqual(parts, [{ kind: 'same', text: 'The apples cost ' }, { kind: 'del', text: '3' },
    { kind: 'ins', text: '7' }, { kind: 'same', text: ' EUR.' }]);
  assert.equal(joined(parts, ['same', 'del']), 'The apples cost 3 EUR.');
  assert.equal(joined(parts, ['same', 'ins']), 'The apples cost 7 EUR.');
});

test('a missing answer on either side is all gone or all new, and equal answers are one part', () => {
  assert.deepEqual(answerDiff(null, 'new'), [{ kind: 'ins', text: 'new' }]);
  assert.deepEqual(answerDiff('old words', ''), [{ kind: 'del', text: 'old words' }]);
  assert.deepEqual(answerDiff('same\nlines', 'same\nlines'), [{ kind: 'same', text: 'same\nlines' }]);
});

test('answers too long to diff word by word show as replaced whole, and still give back both texts', () => {
  const long = 'word '.repeat(1000);
  const parts = answerDiff(long, long + 'more');
  assert.equal(joined(parts, ['same', 'del']), long);
  assert.equal(joined(parts, ['same', 'ins']), long + 'more');
});

test('the fields side by side: each name once, what differs marked', () => {
  assert.deepEqual(fieldRows({ price: 3, item: 'apples' }, { price: 7, item: 'apples', note: 'x' }), [
    { name: 'price', recorded: '3', candidate: '7', same: false },
    { name: 'item', recorded: '"apples"', candidate: '"apples"', same: true },
    { name: 'note', recorded: null, candidate: '"x"', same: false }]);
  assert.deepEqual(fieldRows(null, undefined), []);
});

test('what the cases came to and what they used, in words', () => {
  assert.equal(summaryText({ cases: 3, same: 1, changed: 1, failed: 1, missing: 0, pending: 0 }),
    '3 cases: 1 same, 1 changed, 1 failed');
  assert.equal(summaryText({ cases: 2, same: 0, changed: 0, failed: 0, missing: 1, pending: 1 }),
    '2 cases: 0 same, 0 changed, 0 failed, 1 missing (recorded run gone), 1 still to run');
  assert.equal(useText({ steps: 5, modelCalls: 2, toolCalls: 1, tokens: 45, cost: 0.0012, currency: 'EUR' }),
    '5 steps · 2 model calls · 1 tool call · 45 tokens · 0.0012 EUR');
  assert.equal(judgeText({ calls: 3, tokens: 90, cost: null }), 'judge: 3 calls · 90 tokens');
  assert.equal(judgeText({ calls: 0, tokens: 0 }), null);
});

test('a new evaluation\'s body, and every problem with the form at once', () => {
  assert.deepEqual(evaluationBody({ source: 'version', version: '2', runs: ['r1'], recent: '0', reason: ' why ' }),
    { body: { reason: 'why', version: 2, runs: ['r1'] } });
  assert.deepEqual(evaluationBody({ source: 'diagram', diagram: '<bpmn/>', runs: [], recent: '5',
    dataSet: '[{"question": "q"}]', rubric: 'same price', reason: 'r' }).body,
  { reason: 'r', diagram: '<bpmn/>', runs: [], recent: 5, cases: [{ question: 'q' }], judge: { rubric: 'same price' } });
  const { problems } = evaluationBody({ source: 'diagram', diagram: ' ', runs: [], recent: '-1', dataSet: '{oops',
    reason: '' });
  assert.equal(problems.length, 5);
  assert.match(problems[0], /Paste or upload/);
  assert.match(problems[2], /no JSON/);
  assert.deepEqual(evaluationBody({ source: 'version', version: 1, runs: [], dataSet: '{"question": "q"}',
    reason: 'r' }).problems[0], 'The data set must be a JSON array of cases, e.g. [{"question": "…", "expect": {"contains": ["…"]}}].');
});
