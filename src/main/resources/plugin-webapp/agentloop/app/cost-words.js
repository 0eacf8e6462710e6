// What model calls cost, in words: prompt tokens with those a provider's prompt cache served or stored,
// and money by the price table (agentloop.llm.prices) with what the calls would have cost without the
// cache. Pure functions (no DOM, no Cockpit), so Node's test runner loads them: tools/plugin-tests/.
import { costText, duration } from './words.js';

const known = value => value !== null && value !== undefined;
const count = value => Number(value).toLocaleString('en-US');

/**
 * Money as people read it: "$0.00193" (small amounts to three significant digits, which is where
 * per-call prices live), "$12.35"; "0.5 XYZ" for a currency the browser does not know.
 */
export function moneyText(amount, currency) {
  if (!known(amount)) {
    return null;
  }
  const value = Number(amount);
  const style = Math.abs(value) >= 1 || value === 0
    ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
    : { maximumSignificantDigits: 3 };
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD', ...style }).format(value);
  } catch (e) {
    return `${new Intl.NumberFormat('en-US', style).format(value)} ${currency}`;
  }
}

/** "1,204 prompt tokens (1,024 cached)", "(1,000 written to the cache)" for Anthropic's cache writes. */
export function promptTokensText(prompt, cacheRead, cacheWrite) {
  const parts = [];
  if (cacheRead) {
    parts.push(`${count(cacheRead)} cached`);
  }
  if (cacheWrite) {
    parts.push(`${count(cacheWrite)} written to the cache`);
  }
  return `${count(prompt)} prompt token${Number(prompt) === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * What the call behind a step cost: "model call 1.2 s · 1,204 prompt tokens (1,024 cached) + 20 completion
 * tokens · $0.00193 (without the cache: $0.00321)"; steps without prompt tokens as words.js says them.
 *
 * @param money the step's money from the trace, null when it has none (no price table, or no price for it)
 */
export function stepCostText(cost, money) {
  if (!cost || !cost.modelCall || !known(cost.promptTokens)) {
    return costText(cost);
  }
  const completion = known(cost.completionTokens) ? `${count(cost.completionTokens)} completion tokens` : '? completion tokens';
  return `model call ${duration(cost.latencyMillis)} · ${promptTokensText(cost.promptTokens, cost.cacheReadTokens,
    cost.cacheWriteTokens)} + ${completion}${money ? ` · ${moneyWithoutCache(money.amount, money.withoutCache, money.currency)}` : ''}`;
}

/** "$0.0037 (without the cache: $0.00658)", the part in brackets only where the cache changed the price. */
function moneyWithoutCache(amount, withoutCache, currency) {
  const paid = moneyText(amount, currency);
  return known(withoutCache) && Number(withoutCache) !== Number(amount)
    ? `${paid} (without the cache: ${moneyText(withoutCache, currency)})` : paid;
}

/** A run's prompt and completion tokens: "2,504 prompt tokens (2,304 cached) + 32 completion", null when none were reported. */
export function runTokensText(costs) {
  const c = costs || {};
  if (!known(c.promptTokens) && !known(c.completionTokens)) {
    return null;
  }
  return `${promptTokensText(c.promptTokens ?? 0, c.cacheReadTokens, c.cacheWriteTokens)} + ${count(c.completionTokens ?? 0)} completion`
    + (c.modelCallsWithoutUsage ? ` (${c.modelCallsWithoutUsage} call${c.modelCallsWithoutUsage === 1 ? '' : 's'} reported none)` : '');
}

/**
 * What a run cost by the price table: "$0.0037 (without the cache: $0.00658)", with the calls it could not
 * price ("· 1 model call not priced"); "no model call could be priced"; null without a price table.
 */
export function runMoneyText(money) {
  if (!money) {
    return null;
  }
  const unpriced = money.unpricedModelCalls
    ? `${count(money.unpricedModelCalls)} model call${money.unpricedModelCalls === 1 ? '' : 's'} not priced` : null;
  if (!known(money.amount)) {
    return unpriced ? `no price for any model call (${unpriced})` : 'no model calls yet';
  }
  return moneyWithoutCache(money.amount, money.withoutCache, money.currency) + (unpriced ? ` · ${unpriced}` : '');
}

/** A run in the list of runs: what words.js says of it, then its money where it has any: "1,234 tokens · … · $0.0037". */
export function runListCostText(run, text) {
  const amount = run.money && known(run.money.amount) ? moneyText(run.money.amount, run.money.currency) : null;
  return amount ? `${text} · ${amount}` : text;
}
