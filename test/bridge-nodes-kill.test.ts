// The production layout on real processes and PostgreSQL (docs/operations.md): two API nodes and two workers on one
// database, started together, one shop. While 40 price changes flow in through the API nodes, one API node is killed
// with SIGKILL mid-request and, while both workers hold delta jobs in flight (their storefront calls held at a proxy),
// one worker is killed too. Every change reaches the shop within two poll intervals of its edit (the default
// SYNC_POLL_SECONDS=30, so 60 s: the dead worker's jobs are taken over when their 15 s lease runs out, within 3 s
// more), nothing is made twice, the live worker says once that it took the jobs over, and the queue ends empty.
//
// PostgreSQL only (registered when TEST_DATABASE_URL is set): the embedded database opens in one process only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseUrl } from '../src/config.js';
import { gql, startBridgeStack, stopProc, type BridgeStack, type Proc, type ProxiedCall } from './helpers/bridge-processes.js';
import { until } from './helpers/until.js';

const baseUrl = testDatabaseUrl();
const PRODUCTS = 40;
/** The delta poll's default interval (SYNC_POLL_SECONDS): the target is two of them from an edit to the shop. */
const POLL_SECONDS = 30;
const CONCURRENCY = 4;

interface ShopPrices {
  products: { nodes: { pimId: { value: string } | null; variants: { nodes: { price: string }[] } }[] };
}

if (baseUrl) {
  describe('two API nodes and two workers, one shop: SIGKILL of each kind while price changes flow (postgres)', { timeout: 300_000 }, () => {
    let s: BridgeStack;
    let api2: { proc: Proc; url: string };
    let workers: { proc: Proc; url: string }[];
    let ids: number[];

    before(async () => {
      // The stack's own node serves the API only; the second API node and both workers start together beside it.
      s = await startBridgeStack({
        kind: 'postgres',
        pgBaseUrl: baseUrl,
        recordCalls: true,
        bridgeEnv: { ROLE: 'api', SYNC_CONCURRENCY: String(CONCURRENCY) },
      });
      [api2, ...workers] = await Promise.all([s.startNode('api'), s.startNode('worker'), s.startNode('worker')]);
      ids = (await s.seedProducts(PRODUCTS, { variants: 0, images: 0 })).map((p) => p.id);
      const pushed = await s.push(ids);
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
      assert.deepEqual(await shopPrices(), new Map(ids.map((id, i) => [id, `${10 + (i % 50)}.99`])));
    });
    after(async () => s?.close());

    async function shopPrices(): Promise<Map<number, string>> {
      const data = await gql<ShopPrices>(
        s,
        `query { products(first: 100) { nodes { pimId: metafield(namespace: "pimbridge", key: "pim_product_id") { value } variants(first: 1) { nodes { price } } } } }`,
      );
      return new Map(data.products.nodes.map((n) => [Number(n.pimId?.value), n.variants.nodes[0]?.price ?? '']));
    }

    /** A price change through one API node; the time its answer came (the edit is then the PIM's). */
    async function edit(nodeUrl: string, id: number, price: string): Promise<number> {
      const res = await fetch(`${nodeUrl}/api/products/${id}`, {
        method: 'PATCH',
        headers: { 'x-api-key': s.tenant.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ price }),
      });
      assert.equal(res.status, 200, await res.text());
      await res.arrayBuffer().catch(() => undefined);
      return Date.now();
    }

    it('every change reaches the shop within two poll intervals; nothing is lost or made twice; the take-over is told once', async (t) => {
      // Every storefront call waits at the proxy until the worker is dead, so both workers hold jobs in flight.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const held: ProxiedCall[] = [];
      s.shopHolds.request = (call) => {
        held.push(call);
        return gate;
      };

      const newPrice = (id: number) => `${(id % 70) + 100}.25`;
      const editedAt = new Map<number, number>();
      // Half the changes go to the second API node, which is killed after the first answers: an edit that got no
      // answer may or may not have been applied, so the merchant sends it again to the other node.
      const viaApi2 = ids.slice(0, PRODUCTS / 2);
      let answered = 0;
      const killed = new Promise<void>((resolve) => {
        const attempts = viaApi2.map(async (id) => {
          try {
            editedAt.set(id, await edit(api2.url, id, newPrice(id)));
            if (++answered === 5) void stopProc(api2.proc, 'SIGKILL').then(resolve);
          } catch {
            // the node died under this request
          }
        });
        void Promise.all(attempts).then(() => stopProc(api2.proc, 'SIGKILL').then(resolve));
      });
      await killed;
      assert.ok(!api2.proc.running(), 'the second API node is dead');
      for (const id of viaApi2) if (!editedAt.has(id)) editedAt.set(id, await edit(s.bridgeUrl, id, newPrice(id)));
      for (const id of ids.slice(PRODUCTS / 2)) editedAt.set(id, await edit(s.bridgeUrl, id, newPrice(id)));

      // The next poll queues the changes; both workers fill up (CONCURRENCY calls each wait at the proxy); one dies.
      await until('both workers to hold delta jobs in flight', async () => held.length >= 2 * CONCURRENCY, (POLL_SECONDS + 15) * 1_000);
      const [dead, live] = workers;
      await stopProc(dead!.proc, 'SIGKILL');
      const killedAt = Date.now();
      s.shopHolds.request = null;
      release();

      const want = new Map(ids.map((id) => [id, newPrice(id)]));
      const deliveredAt = new Map<number, number>();
      await until(
        'every change to reach the shop',
        async () => {
          const prices = await shopPrices();
          for (const [id, price] of want) if (!deliveredAt.has(id) && prices.get(id) === price) deliveredAt.set(id, Date.now());
          return deliveredAt.size === PRODUCTS;
        },
        (2 * POLL_SECONDS + 30) * 1_000,
        500,
      );
      const delays = ids.map((id) => deliveredAt.get(id)! - editedAt.get(id)!);
      const slowest = Math.max(...delays);
      t.diagnostic(
        `edit → shop: slowest ${(slowest / 1000).toFixed(1)} s, median ${(delays.sort((a, b) => a - b)[PRODUCTS / 2]! / 1000).toFixed(1)} s; ` +
          `last delivery ${((Math.max(...deliveredAt.values()) - killedAt) / 1000).toFixed(1)} s after the worker was killed`,
      );
      assert.ok(slowest <= 2 * POLL_SECONDS * 1_000, `a change took ${slowest} ms to reach the shop (target ${2 * POLL_SECONDS} s)`);

      // Nothing made twice: still one shop product per PIM product, each with its new price.
      assert.deepEqual(await shopPrices(), want);
      const count = await gql<{ productsCount: { count: number } }>(s, 'query { productsCount { count } }');
      assert.equal(count.productsCount.count, PRODUCTS);

      // The live worker told the take-over (once per batch of jobs it took, at warn), and the queue ends empty.
      const tookOver = live!.proc
        .output()
        .split('\n')
        .filter((line) => line.includes('took over'));
      assert.ok(tookOver.length >= 1 && tookOver.length <= 2, live!.proc.output());
      await until(
        'the queue to be empty',
        async () => {
          const status = await s.connector('GET', '/api/status');
          const q = status.body?.data?.queue_stats;
          return q?.pending_messages === 0 && q?.processing_messages === 0;
        },
        30_000,
        250,
      );
    });
  });
}
