// node --test tools/plugin-tests/ (npm run test:plugin): where the step tree puts each step.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layout, summary } from '../../src/main/resources/plugin-webapp/agentloop/app/tree-layout.js';

const step = (id, parent, kind = 'THOUGHT', status = 'ACTIVE', content = { text: `step ${id}` }) =>
  ({ id, parent, kind, status, content });

const places = place => Object.fromEntries([...place.entries()].map(([id, p]) => [id, `${p.col},${p.row}`]));

test('a run nobody changed is one column, a row per step', () => {
  const path = [step(1, null, 'PLAN'), step(2, 1), step(3, 2)];
  assert.deepEqual(places(layout(path, path)), { 1: '0,0', 2: '0,1', 3: '0,2' });
});

test('a superseded branch stands beside the step after its fork, and a second one does not overlap it', () => {
  // #1 → #2 → #3 → #4 superseded by #5 (edit of #3's child), and #6 → #7 superseded later from #5
  const all = [step(1, null, 'PLAN'), step(2, 1), step(3, 2, 'ACTION', 'SUPERSEDED'), step(4, 3, 'OBSERVATION', 'SUPERSEDED'),
    step(5, 2, 'ACTION'), step(6, 5, 'OBSERVATION', 'SUPERSEDED'), step(7, 6, 'THOUGHT', 'SUPERSEDED'),
    step(8, 5, 'OBSERVATION')];
  const active = [all[0], all[1], all[4], all[7]];
  assert.deepEqual(places(layout(active, all)), {
    1: '0,0', 2: '0,1', 5: '0,2', 8: '0,3',
    3: '1,2', 4: '1,3',
    6: '2,3', 7: '2,4'
  });
});

test('a branch whose root has no parent on the path starts at the top', () => {
  const all = [step(1, null, 'PLAN', 'SUPERSEDED'), step(2, null, 'PLAN')];
  assert.deepEqual(places(layout([all[1]], all)), { 2: '0,0', 1: '1,0' });
});

test('a step in one short line, by kind, cut with an ellipsis', () => {
  assert.equal(summary(step(1, null, 'PLAN', 'ACTIVE', { steps: ['look', 'add'] })), 'look; add');
  assert.equal(summary(step(2, 1, 'ACTION', 'ACTIVE', { tool: 'calculator', arguments: { expression: '1 + 1' } })),
    'calculator {"expression":"1 + 1"}');
  assert.equal(summary(step(3, 2, 'OBSERVATION', 'ACTIVE', { tool: 'calculator', error: 'boom' })), 'error: boom');
  assert.equal(summary(step(4, 3, 'OBSERVATION', 'ACTIVE', { tool: 'calculator', result: { n: 391 } })), '{"n":391}');
  assert.equal(summary(step(5, 4, 'THOUGHT', 'ACTIVE', { text: 'a\n  long   thought that goes on' }), 10), 'a long th…');
});
