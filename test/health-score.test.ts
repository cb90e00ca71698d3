// The health score as a pure function: each penalty, its cap, its name in `factors`, the floor and the bands.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { healthScore, healthStatus, type HealthInput } from '../src/connector/status/health-score.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

const healthy = (over: Partial<HealthInput> = {}): HealthInput => ({
  isActive: true,
  pim: 'connected',
  storefront: 'connected',
  failedSyncs24h: 0,
  mappingsTotal: 10,
  mappingsInError: 0,
  failedJobs: 0,
  lastSyncAt: new Date(NOW.getTime() - DAY),
  createdAt: new Date(NOW.getTime() - 30 * DAY),
  now: NOW,
  ...over,
});

describe('health score', () => {
  it('is 100, excellent and without factors when all is well', () => {
    assert.deepEqual(healthScore(healthy()), { score: 100, status: 'excellent', factors: [] });
  });

  it('names and weighs every penalty', () => {
    const cases: Array<[Partial<HealthInput>, number, RegExp]> = [
      [{ isActive: false }, 50, /^Integration is inactive \(-50\)$/],
      [{ pim: 'error' }, 70, /^PIM is unreachable \(-30\)$/],
      [{ storefront: 'error' }, 70, /^Storefront is unreachable \(-30\)$/],
      [{ failedSyncs24h: 1 }, 95, /^1 failed sync in the last 24 hours \(-5\)$/],
      [{ failedSyncs24h: 3 }, 85, /^3 failed syncs in the last 24 hours \(-15\)$/],
      [{ failedSyncs24h: 9 }, 80, /^9 failed syncs in the last 24 hours \(-20\)$/],
      [{ mappingsInError: 1, mappingsTotal: 100 }, 99, /^1 product mapping of 100 in error \(-1\)$/],
      [{ mappingsInError: 5, mappingsTotal: 10 }, 90, /^5 product mappings of 10 in error \(-10\)$/],
      [{ mappingsInError: 10, mappingsTotal: 10 }, 80, /in error \(-20\)$/],
      [{ failedJobs: 2 }, 96, /^2 failed queue jobs \(-4\)$/],
      [{ failedJobs: 50 }, 90, /^50 failed queue jobs \(-10\)$/],
      [{ lastSyncAt: new Date(NOW.getTime() - 8 * DAY) }, 90, /^No sync in 7 days \(-10\)$/],
      [{ lastSyncAt: null, createdAt: new Date(NOW.getTime() - 8 * DAY) }, 90, /^Never synced \(connected over 7 days ago\) \(-10\)$/],
      // A refused renewal also fails the storefront check: counted once, under its cause.
      [{ storefront: 'error', access: { reauthorizationRequired: true, missingScopes: [] } }, 70, /^Storefront needs reauthorization \(-30\)$/],
      [{ access: { reauthorizationRequired: false, missingScopes: ['write_publications'] } }, 90, /^Storefront has not granted write_publications \(-10\)$/],
    ];
    for (const [over, score, factor] of cases) {
      const result = healthScore(healthy(over));
      assert.equal(result.score, score, JSON.stringify(over));
      assert.equal(result.factors.length, 1, JSON.stringify(over));
      assert.match(result.factors[0], factor);
      assert.equal(result.status, healthStatus(score));
    }
  });

  it('gives no penalty for what has not happened or not been checked yet', () => {
    assert.equal(healthScore(healthy({ pim: 'unknown', storefront: 'unknown' })).score, 100);
    assert.equal(healthScore(healthy({ lastSyncAt: null, createdAt: new Date(NOW.getTime() - 6 * DAY) })).score, 100);
    assert.equal(healthScore(healthy({ mappingsTotal: 0, mappingsInError: 0 })).score, 100);
    assert.equal(healthScore(healthy({ lastSyncAt: new Date(NOW.getTime() - 7 * DAY + 1000) })).score, 100);
  });

  it('adds penalties up, floors at 0 and keeps every factor', () => {
    const result = healthScore(healthy({ isActive: false, pim: 'error', storefront: 'error', failedSyncs24h: 4, failedJobs: 1 }));
    assert.equal(result.score, 0);
    assert.equal(result.status, 'poor');
    assert.equal(result.factors.length, 5);
    const two = healthScore(healthy({ pim: 'error', failedSyncs24h: 2 }));
    assert.deepEqual(two, { score: 60, status: 'fair', factors: ['PIM is unreachable (-30)', '2 failed syncs in the last 24 hours (-10)'] });
  });

  it('maps scores to bands at 90, 70 and 50', () => {
    assert.deepEqual([100, 90, 89, 70, 69, 50, 49, 0].map(healthStatus), ['excellent', 'excellent', 'good', 'good', 'fair', 'fair', 'poor', 'poor']);
  });
});
