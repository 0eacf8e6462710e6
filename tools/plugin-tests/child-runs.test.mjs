// node --test tools/plugin-tests/ (npm run test:plugin): one run tree across agents, in words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { childDoing, childRunOf, waitingFor }
  from '../../src/main/resources/plugin-webapp/agentloop/app/child-runs.js';

test('an observation of a call another agent answered links its child run; other steps link none', () => {
  assert.equal(childRunOf({ kind: 'OBSERVATION', content: { tool: 'research-agent', result: '4', childRun: 'r-2' } }),
    'r-2');
  assert.equal(childRunOf({ kind: 'OBSERVATION', content: { tool: 'calculator', result: '4' } }), null);
  // an action names the agent but no run yet; a step without content is no link either
  assert.equal(childRunOf({ kind: 'ACTION', content: { tool: 'research-agent', childRun: 'r-2' } }), null);
  assert.equal(childRunOf({ kind: 'OBSERVATION' }), null);
  assert.equal(childRunOf(undefined), null);
});

test('what a child does is said as its caller waits for it: its reviews by name, its calls by kind', () => {
  assert.equal(childDoing({ kind: 'person', activity: 'reviewPlan', activityName: 'Review the plan' }),
    'its plan review');
  assert.equal(childDoing({ kind: 'person', activity: 'agentStuck', activityName: 'Help the stuck agent' }),
    'a person to help it, as it is stuck');
  assert.equal(childDoing({ kind: 'person', activity: 'agentStuck', activityName: 'Help the stuck agent',
    problem: 'LOOP_DETECTED: The agent is going round in circles' }),
  'stuck — LOOP_DETECTED: The agent is going round in circles');
  // an analyst's own user task is named as the diagram names it
  assert.equal(childDoing({ kind: 'person', activity: 'legalCheck', activityName: 'Legal check' }),
    'a person in “Legal check”');
  assert.equal(childDoing({ kind: 'model', activity: 'plan' }), 'planning (model call)');
  assert.equal(childDoing({ kind: 'model', activity: 'think' }), 'thinking (model call)');
  assert.equal(childDoing({ kind: 'tools', tools: ['calculator', 'http_get'] }), 'running calculator, http_get');
  assert.equal(childDoing({ kind: 'retry', activityName: 'Think' }), 'a retry of “Think” after a failure');
  assert.equal(childDoing(null), 'between two steps');
});

test('a caller waits for each child in the order they started, and for its grandchildren through them', () => {
  const children = [
    { runId: 'r-2', agent: 'research-agent', activeStep: { kind: 'person', activity: 'reviewPlan' } },
    { runId: 'r-3', agent: 'writer-agent', activeStep: { kind: 'agents', children: [
      { runId: 'r-4', agent: 'fact-checker', activeStep: { kind: 'model', activity: 'think' } }] } }];
  assert.deepEqual(waitingFor(children), [
    { runId: 'r-2', agent: 'research-agent', doing: 'its plan review' },
    { runId: 'r-3', agent: 'writer-agent', doing: 'its own sub-agents: fact-checker (thinking (model call))' }]);
  assert.deepEqual(waitingFor(undefined), []);
});
