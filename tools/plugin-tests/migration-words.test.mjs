// node --test tools/plugin-tests/ (npm run test:plugin): what a migration did or would do, in words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrationSummary, outcomeLabel, sourceVersions }
  from '../../src/main/resources/plugin-webapp/agentloop/app/migration-words.js';

const report = (fields) => ({ total: 0, migrated: 0, refused: 0, pending: 0, dryRun: false, toVersion: 2, ...fields });

test('a dry run says what would happen, a migration what did', () => {
  assert.equal(migrationSummary(report({ total: 3, migrated: 2, refused: 1, dryRun: true })),
    '2 runs would move to version 2, 1 would stay on its version.');
  assert.equal(migrationSummary(report({ total: 3, migrated: 2, refused: 1 })),
    '2 runs moved to version 2, 1 stays on its version.');
  assert.equal(migrationSummary(report({ total: 3, migrated: 1, refused: 2 })),
    '1 run moved to version 2, 2 stay on their version.');
  assert.equal(migrationSummary(report({ total: 1, migrated: 1 })), '1 run moved to version 2.');
});

test('runs that wait to move and a batch still under way are said so', () => {
  assert.equal(migrationSummary(report({ total: 5, migrated: 1, pending: 2 })),
    '1 run moved to version 2, 2 move when they wait (3 of 5 looked at so far).');
  assert.equal(migrationSummary(report({ total: 1, pending: 1, dryRun: true })),
    '0 runs would move to version 2, 1 busy, would move when it waits.');
});

test('each run reads as what becomes of it', () => {
  assert.equal(outcomeLabel('migrated', true), 'would move');
  assert.equal(outcomeLabel('migrated', false), 'moved');
  assert.equal(outcomeLabel('refused', false), 'stays');
  assert.equal(outcomeLabel('pending', false), 'moves when it waits');
});

test('runs move from versions with open runs, never from the target itself', () => {
  const versions = [{ version: 1, openRuns: 4 }, { version: 2, openRuns: 0 }, { version: 3, openRuns: 1 }];
  assert.deepEqual(sourceVersions(versions, 3).map(v => v.version), [1]);
  assert.deepEqual(sourceVersions(versions, 2).map(v => v.version), [1, 3]);
});
