// A node whose job polls fail (its database away) says so once, not once per queue and poll, and once when they work again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JOB } from '../src/jobs/job-types.js';
import { PollFailures } from '../src/jobs/job-runner.js';

describe('failing job polls', () => {
  it('are told once at warn, whatever the queues and polls, and their end once at info', () => {
    const lines: [string, string][] = [];
    const log = {
      error: (_o: object, m: string) => lines.push(['error', m]),
      warn: (_o: object, m: string) => lines.push(['warn', m]),
      info: (_o: object, m: string) => lines.push(['info', m]),
    };
    const polls = new PollFailures(log);
    for (let i = 0; i < 5; i++) for (const q of [JOB.syncProduct, JOB.syncPoll, JOB.syncBulk]) polls.failed(q, new Error('connect ECONNREFUSED'));
    polls.worked(JOB.syncProduct);
    polls.worked(JOB.syncPoll);
    assert.equal(lines.length, 1, 'one queue still fails: nothing more is told');
    polls.worked(JOB.syncBulk);
    polls.worked(JOB.syncBulk);
    assert.deepEqual(
      lines.map(([level]) => level),
      ['warn', 'info'],
    );
    // A new outage is told again.
    polls.failed(JOB.syncFull, new Error('timeout'));
    assert.deepEqual(
      lines.map(([level]) => level),
      ['warn', 'info', 'warn'],
    );
  });
});
