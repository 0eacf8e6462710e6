// What a migration of runs between an agent's versions did, or would do, in words: no DOM here, so that
// node --test reads it (tools/plugin-tests/migration-words.test.mjs).

const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;

/** The outcome of one run, as the operator reads it in the list. */
export function outcomeLabel(outcome, dryRun) {
  if (outcome === 'migrated') {
    return dryRun ? 'would move' : 'moved';
  }
  if (outcome === 'pending') {
    return dryRun ? 'busy: would move when it waits' : 'moves when it waits';
  }
  return dryRun ? 'would stay' : 'stays';
}

/** One line on a whole migration: how many runs moved (or would), stay and wait to move, of how many. */
export function migrationSummary(report) {
  const { total, migrated, refused, pending, dryRun, toVersion } = report;
  const looked = migrated + refused + pending;
  const moved = dryRun ? `${plural(migrated, 'run', 'runs')} would move to version ${toVersion}`
    : `${plural(migrated, 'run', 'runs')} moved to version ${toVersion}`;
  const parts = [moved];
  if (refused) {
    const stay = dryRun ? 'would stay' : refused === 1 ? 'stays' : 'stay';
    parts.push(`${refused} ${stay} on ${refused === 1 ? 'its' : 'their'} version`);
  }
  if (pending) {
    parts.push(`${pending} ${dryRun ? 'busy, would move' : 'move'} when ${pending === 1 ? 'it waits' : 'they wait'}`);
  }
  const progress = !dryRun && looked < total ? ` (${looked} of ${total} looked at so far)` : '';
  return `${parts.join(', ')}${progress}.`;
}

/** The versions a person may move runs from: those with open runs, other than the target. */
export function sourceVersions(versions, toVersion) {
  return versions.filter(version => version.openRuns > 0 && version.version !== toVersion);
}
