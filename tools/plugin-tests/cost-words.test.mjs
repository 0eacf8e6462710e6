import assert from 'node:assert/strict';
import test from 'node:test';

import { moneyText, promptTokensText, runListCostText, runMoneyText, runTokensText, stepCostText }
  from '../../src/main/resources/plugin-webapp/agentloop/app/cost-words.js';

test('a model step says its prompt tokens with those from the cache, and its money with and without the cache', () => {
  const cost = { modelCall: true, latencyMillis: 1200, promptTokens: 1204, completionTokens: 20, cacheReadTokens: 1024,
    cacheWriteTokens: null };
  assert.equal(stepCostText(cost, null), 'model call 1.2 s · 1,204 prompt tokens (1,024 cached) + 20 completion tokens');
  assert.equal(stepCostText(cost, { amount: 0.00193, withoutCache: 0.00321, currency: 'USD' }),
    'model call 1.2 s · 1,204 prompt tokens (1,024 cached) + 20 completion tokens · $0.00193 (without the cache: $0.00321)');
});

test('Anthropic\'s cache writes are named, and a step without any cache says nothing of one', () => {
  assert.equal(stepCostText({ modelCall: true, latencyMillis: 800, promptTokens: 1050, completionTokens: 20,
    cacheReadTokens: 0, cacheWriteTokens: 1000 }, null),
  'model call 0.8 s · 1,050 prompt tokens (1,000 written to the cache) + 20 completion tokens');
  assert.equal(stepCostText({ modelCall: true, latencyMillis: 800, promptTokens: 120, completionTokens: 30 },
    { amount: 0.0006, withoutCache: 0.0006, currency: 'USD' }),
  'model call 0.8 s · 120 prompt tokens + 30 completion tokens · $0.0006');
  assert.equal(promptTokensText(1, null, null), '1 prompt token');
});

test('steps without prompt tokens read as before: totals only, nothing reported, tool calls', () => {
  assert.equal(stepCostText({ modelCall: true, latencyMillis: 800, promptTokens: null, completionTokens: null, totalTokens: 99 }, null),
    'model call 0.8 s · 99 tokens');
  assert.equal(stepCostText({ modelCall: true, latencyMillis: 800, promptTokens: null, completionTokens: null, totalTokens: null }, null),
    'model call 0.8 s · tokens not reported by the endpoint');
  assert.equal(stepCostText({ modelCall: false, latencyMillis: 61_000 }, null), 'tool call 1 min 1 s');
  assert.equal(stepCostText(null, null), null);
});

test('money reads as money: small amounts to three significant digits, others to the cent, unknown currencies by code', () => {
  assert.equal(moneyText(0.0019312, 'USD'), '$0.00193');
  assert.equal(moneyText(12.345, 'USD'), '$12.35');
  assert.equal(moneyText(0, 'EUR'), '€0.00');
  assert.equal(moneyText(0.5, 'tokens!'), '0.5 tokens!');
  assert.equal(moneyText(null, 'USD'), null);
});

test('a run says its tokens with the cached ones, and its money with what the cache saved and what is not priced', () => {
  assert.equal(runTokensText({ promptTokens: 2504, completionTokens: 32, cacheReadTokens: 2304, cacheWriteTokens: null,
    modelCallsWithoutUsage: 0 }), '2,504 prompt tokens (2,304 cached) + 32 completion');
  assert.equal(runTokensText({ promptTokens: 10, completionTokens: 5, modelCallsWithoutUsage: 2 }),
    '10 prompt tokens + 5 completion (2 calls reported none)');
  assert.equal(runTokensText({ promptTokens: null, completionTokens: null }), null);
  assert.equal(runMoneyText({ amount: 0.0037, withoutCache: 0.00658, currency: 'USD', unpricedModelCalls: 0 }),
    '$0.0037 (without the cache: $0.00658)');
  assert.equal(runMoneyText({ amount: 0.00066, withoutCache: 0.00336, currency: 'USD', unpricedModelCalls: 1 }),
    '$0.00066 (without the cache: $0.00336) · 1 model call not priced');
  assert.equal(runMoneyText({ amount: null, withoutCache: null, currency: 'USD', unpricedModelCalls: 3 }),
    'no price for any model call (3 model calls not priced)');
  assert.equal(runMoneyText(null), null, 'without a price table: tokens only, never a made-up price');
});

test('the list of runs adds a run\'s money where it has any', () => {
  assert.equal(runListCostText({ money: { amount: 0.0037, currency: 'USD' } }, '2,536 tokens · 3 model calls'),
    '2,536 tokens · 3 model calls · $0.0037');
  assert.equal(runListCostText({ money: { amount: null, currency: 'USD', unpricedModelCalls: 2 } }, '0 model calls'),
    '0 model calls');
  assert.equal(runListCostText({ money: null }, '1 model call'), '1 model call');
});
