// Where each step of a run's step tree goes, and a step in one short line: pure functions (no DOM),
// so Node's test runner loads them (tools/plugin-tests/); step-tree.js draws the picture from them.

/** A step's content in one short line, for the picture and the diff. */
export function summary(step, length = 60) {
  const c = step.content || {};
  const text = step.kind === 'PLAN' ? (c.steps || []).join('; ')
    : step.kind === 'ACTION' ? `${c.tool} ${JSON.stringify(c.arguments)}`
      : step.kind === 'OBSERVATION' ? ('error' in c ? `error: ${c.error}` : String(typeof c.result === 'string' ? c.result : JSON.stringify(c.result)))
        : c.text ?? JSON.stringify(c);
  const line = String(text ?? '').replace(/\s+/g, ' ');
  return line.length > length ? `${line.substring(0, length - 1)}…` : line;
}

/**
 * Places every step: the active path in column 0, one row each; each branch (the steps below one
 * step off the path) starts beside the step after its fork and takes the first column free there.
 */
export function layout(active, all) {
  const onPath = new Map(active.map((step, row) => [step.id, row]));
  const byId = new Map(all.map(step => [step.id, step]));
  const place = new Map(active.map((step, row) => [step.id, { col: 0, row }]));
  const groups = new Map();
  for (const step of all.filter(s => !onPath.has(s.id)).sort((a, b) => a.id - b.id)) {
    let root = step;
    while (root.parent !== null && root.parent !== undefined && !onPath.has(root.parent) && byId.has(root.parent)) {
      root = byId.get(root.parent);
    }
    groups.set(root.id, [...(groups.get(root.id) || []), step]);
  }
  const taken = [];
  for (const [rootId, steps] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
    const root = byId.get(rootId);
    const forkRow = root.parent !== null && root.parent !== undefined && onPath.has(root.parent) ? onPath.get(root.parent) : -1;
    const first = forkRow + 1;
    const last = first + steps.length - 1;
    let col = 1;
    while (taken.some(t => t.col === col && t.first <= last && first <= t.last)) {
      col++;
    }
    taken.push({ col, first, last });
    steps.forEach((step, i) => place.set(step.id, { col, row: first + i }));
  }
  return place;
}
