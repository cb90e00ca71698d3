// Waiting on the storefront's long operations (connector/storefront-operations.ts), with a clock the test moves: a
// busy shop is asked again with back-off until the deadline, a poll grows its wait up to the cap, failed polls are
// forgiven up to POLL_FAILURES in a row, a refused token or a bug ends the wait at once, and a catalogue read that
// failed as a whole is started again, then fails with its reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogueReadFailed, POLL_FAILURES, pollUntilDone, readShopCatalogue, startWhenFree } from '../src/connector/storefront-operations.js';
import type { CatalogueReadState } from '../src/storefront/port/catalogue.js';
import { StorefrontError } from '../src/storefront/port/errors.js';

const SHOP = { domain: 'ops.myshopify.com', accessToken: 'x', apiBaseUrl: null };

/** A sleep that records the waits and returns at once. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('storefront operations', () => {
  it('a start refused as busy is tried again (1 s, doubling) until it goes through', async () => {
    const { waits, sleep } = recordingSleep();
    let tries = 0;
    const id = await startWhenFree(
      async () => {
        if (++tries < 4) throw new StorefrontError('unavailable', 'another bulk operation runs');
        return 'op-1';
      },
      { busyRetryMs: 60_000, sleep },
    );
    assert.equal(id, 'op-1');
    assert.deepEqual(waits, [1_000, 2_000, 4_000]);
  });

  it('a start refused otherwise, or busy past the deadline, is thrown', async () => {
    const { sleep } = recordingSleep();
    await assert.rejects(
      startWhenFree(() => Promise.reject(new StorefrontError('forbidden', 'no scope')), { busyRetryMs: 60_000, sleep }),
      /no scope/,
    );
    await assert.rejects(
      startWhenFree(() => Promise.reject(new StorefrontError('unavailable', 'busy')), { busyRetryMs: 500, sleep }),
      /busy/,
    );
  });

  it('polls with a growing wait up to the cap, forgiving failed polls until POLL_FAILURES in a row', async () => {
    const { waits, sleep } = recordingSleep();
    const answers: (CatalogueReadState | Error)[] = [
      { state: 'running', objectCount: 1 },
      new StorefrontError('unavailable', 'timeout'),
      { state: 'running', objectCount: 2 },
      { state: 'running', objectCount: 3 },
      { state: 'completed', products: [] },
    ];
    const seen: number[] = [];
    const done = await pollUntilDone(
      async () => {
        const a = answers.shift()!;
        if (a instanceof Error) throw a;
        return a;
      },
      { pollMs: { first: 100, max: 200 }, sleep, onRunning: (s) => void (s.state === 'running' && seen.push(s.objectCount)) },
    );
    assert.deepEqual(done, { state: 'completed', products: [] });
    assert.deepEqual(waits, [100, 150, 200, 200]);
    assert.deepEqual(seen, [1, 2, 3]);

    let polls = 0;
    await assert.rejects(
      pollUntilDone(
        async () => {
          polls++;
          throw new StorefrontError('unavailable', 'down');
        },
        { pollMs: { first: 1, max: 1 }, sleep },
      ),
      /down/,
    );
    assert.equal(polls, POLL_FAILURES);
    for (const fatal of [new StorefrontError('unauthorized', 'revoked'), new TypeError('a bug')]) {
      polls = 0;
      await assert.rejects(
        pollUntilDone(
          async () => {
            polls++;
            throw fatal;
          },
          { pollMs: { first: 1, max: 1 }, sleep },
        ),
        (err) => err === fatal,
      );
      assert.equal(polls, 1);
    }
  });

  it('a catalogue read follows the recorded operation, starts another after a failed one, and fails after its attempts', async () => {
    const { sleep } = recordingSleep();
    const saved: (string | null)[] = [];
    let started = 0;
    const states = new Map<string, CatalogueReadState>([
      ['recorded', { state: 'failed', message: 'INTERNAL_SERVER_ERROR' }],
      ['op-1', { state: 'completed', products: [] }],
    ]);
    const storefront = {
      startCatalogueRead: async () => ({ operationId: `op-${++started}` }),
      catalogueReadState: async (_shop: unknown, id: string) => states.get(id)!,
    };
    const job = {
      storefront,
      shop: SHOP,
      saveOperation: async (id: string | null) => void saved.push(id),
      pollMs: { first: 1, max: 1 },
      busyRetryMs: 0,
      sleep,
    };
    assert.deepEqual(await readShopCatalogue({ ...job, operationId: 'recorded', attempts: 3 }), []);
    assert.deepEqual(saved, [null, 'op-1']);

    states.set('op-2', { state: 'failed', message: 'ACCESS_DENIED' });
    await assert.rejects(
      readShopCatalogue({ ...job, operationId: null, attempts: 1 }),
      (err) => err instanceof CatalogueReadFailed && /ACCESS_DENIED/.test(err.message),
    );
  });
});
