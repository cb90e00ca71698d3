// The bridge, live: a console session follows its products' sync states over GET /api/sync/events (Server-Sent Events,
// read here over real HTTP with fetch), pushed as they change. A price changed through the PIM API is told to the
// connector (the PIM's catalogue change), which polls at once (SYNC_POLL_SECONDS is 60 here, so the tick is not what
// moves it): the stream says pending, syncing, synced within moments, with the app's own workers and the sandbox shop.
// Another organization's session hears nothing; no session is a 401 in the connector's envelope; a stream per tab is
// capped per organization; GET /api/sync/states answers where products stand; the delta sync writes its sync log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, freePort, type ConnectorHarness, type SandboxConnection } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { createProduct, okData, type Call } from './helpers/pim.js';
import { csv, importFile } from './helpers/catalogue-files.js';
import { until } from './helpers/until.js';

interface SyncEvent {
  integration_id: number;
  product_id: number;
  state: 'pending' | 'syncing' | 'synced' | 'error';
  error?: string;
  synced_at?: string;
}

/** An open event stream read in the background: its events and comment lines as they come, each with its arrival time. */
interface Stream {
  status: number;
  contentType: string | null;
  events: (SyncEvent & { at: number })[];
  comments: string[];
  ended: Promise<void>;
  close(): void;
}

async function openStream(baseUrl: string, headers: Record<string, string>): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/sync/events`, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const stream: Stream = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events: [],
    comments: [],
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (res.status !== 200 || !res.body) return stream;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          for (const line of buffer.slice(0, end).split('\n')) {
            if (line.startsWith('data: ')) stream.events.push({ ...(JSON.parse(line.slice(6)) as SyncEvent), at: Date.now() });
            else if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
          }
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by the test
    }
  })();
  return stream;
}

for (const target of databaseTargets()) {
  describe(`live sync states over Server-Sent Events [${target.name}]`, () => {
    let h: ConnectorHarness;
    let shop: SandboxConnection;
    let c: Call;
    let session: { cookie: string };
    let other: { tenant: Tenant; cookie: string };
    let otherStream: Stream;
    const open: Stream[] = [];

    const signIn = async (tenant: Tenant) => {
      const res = await h.app.inject({ method: 'POST', url: '/api/session', payload: { api_key: tenant.apiKey, api_secret: tenant.apiSecret } });
      assert.equal(res.statusCode, 200, res.body);
      return { cookie: String(res.headers['set-cookie']).split(';')[0] };
    };
    const mapping = async (productId: number) => {
      const res = await h.call('GET', `/api/products/mapping/${productId}`, shop.token);
      return res.statusCode === 404 ? null : res.json().data;
    };

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, SYNC_POLL_SECONDS: '60' }, port, {
        syncStream: { heartbeatMs: 200, maxPerOrganization: 3 },
      });
      shop = await h.sandboxConnected();
      c = h.as(shop.tenant);
      session = await signIn(shop.tenant);
      const otherTenant = await h.tenant('Another organization');
      other = { tenant: otherTenant, ...(await signIn(otherTenant)) };
      await h.app.services.jobs.workers.start();
      // Listening before anything happens: every event of the suite passes by it.
      otherStream = await openStream(h.pimUrl, { cookie: other.cookie });
      open.push(otherStream);
    });

    after(async () => {
      await h.app.services.jobs.workers.stop(5_000);
      // Streams still open (the other organization's among them): closing the app ends them instead of waiting.
      const started = Date.now();
      await h.close();
      assert.ok(Date.now() - started < 10_000, `the app closed in ${Date.now() - started} ms with streams open`);
      await Promise.all(open.map((s) => s.ended));
    });

    it('without a console session: 401 AUTHENTICATION_FAILED in the connector envelope (a bearer token is no session either)', async () => {
      for (const headers of [{}, { authorization: `Bearer ${shop.token}` }, { cookie: 'pimbridge_session=not-a-session' }] as Record<string, string>[]) {
        const res = await fetch(`${h.pimUrl}/api/sync/events`, { headers });
        assert.equal(res.status, 401);
        assert.match(String(res.headers.get('content-type')), /^application\/json/);
        const body = (await res.json()) as Record<string, unknown>;
        assert.equal(body.status, 'error');
        assert.equal(body.code, 'AUTHENTICATION_FAILED');
        assert.equal(typeof body.message, 'string');
      }
      const states = await h.call('GET', '/api/sync/states?product_ids=1', shop.token);
      assert.equal(states.statusCode, 401);
      assert.equal(states.json().code, 'AUTHENTICATION_FAILED');
    });

    it('a price change in the PIM: the stream says pending, syncing, then synced, within moments, without a tick', async () => {
      const stream = await openStream(h.pimUrl, { cookie: session.cookie });
      open.push(stream);
      assert.equal(stream.status, 200);
      assert.match(String(stream.contentType), /^text\/event-stream/);
      await until('a heartbeat', () => stream.comments.includes('ping'), 5_000);

      // Created after the connection: the delta sync creates it in the shop (woken by the PIM's change, not the tick).
      const product = await createProduct(c, { name: 'Live Lantern', status: 'active', price: '20.00' });
      await until('the product in the shop', async () => (await mapping(product.id))?.sync_status === 'synced', 15_000);
      await until('its synced event', () => stream.events.some((e) => e.product_id === product.id && e.state === 'synced'), 5_000);
      const first = (await mapping(product.id)).last_synced_at;

      const from = stream.events.length;
      const changedAt = Date.now();
      okData(await c('PATCH', `/api/products/${product.id}`, { price: '24.50' }));
      const ours = () => stream.events.slice(from).filter((e) => e.product_id === product.id);
      await until('pending, then synced', () => ours().some((e) => e.state === 'synced'), 10_000);
      const states = ours().map((e) => e.state);
      assert.deepEqual(states, ['pending', 'syncing', 'synced'], `the states in order: ${states.join(', ')}`);
      for (const e of ours()) assert.equal(e.integration_id, shop.integrationId);
      const synced = ours().at(-1)!;
      const ms = synced.at - changedAt;
      assert.ok(ms < 5_000, `synced ${ms} ms after the change (pending after ${ours()[0].at - changedAt} ms)`);
      // The event carries the new last sync, as the mapping now says.
      const now = await mapping(product.id);
      assert.equal(now.sync_status, 'synced');
      assert.equal(synced.synced_at, now.last_synced_at);
      assert.ok(now.last_synced_at >= first);
      const inShop = await shop.gql<{ product: { variants: { nodes: { price: string }[] } } }>(
        'query ($id: ID!) { product(id: $id) { variants(first: 1) { nodes { price } } } }',
        { id: `gid://shopify/Product/${now.storefront_product_id}` },
      );
      assert.equal(inShop.product.variants.nodes[0].price, '24.50');
      stream.close();
    });

    it('an import wakes the delta sync as an API write does: its product reaches the shop without a tick', async () => {
      const done = await importFile(
        c,
        csv([
          ['sku', 'name', 'price', 'status'],
          ['LIVE-IMPORT-1', 'Imported Lamp', '31.00', 'active'],
        ]),
      );
      assert.deepEqual([done.state, done.products.created], ['completed', 1]);
      const id = okData(await c('GET', '/api/products?search=LIVE-IMPORT-1')).products[0].id;
      await until('the imported product in the shop', async () => (await mapping(id))?.sync_status === 'synced', 15_000);
    });

    it('a push is followed too, and GET /api/sync/states says where products stand', async () => {
      const stream = await openStream(h.pimUrl, { cookie: session.cookie });
      open.push(stream);
      const product = await createProduct(c, { name: 'Live Kettle', status: 'active', price: '35.00' });
      const pushed = await h.call('POST', '/api/products/push', shop.token, { products: [{ id: product.id }] });
      assert.equal(pushed.statusCode, 200, pushed.body);
      await until('synced', () => stream.events.some((e) => e.product_id === product.id && e.state === 'synced'), 10_000);
      assert.ok(stream.events.some((e) => e.product_id === product.id && e.state === 'syncing'));

      const res = await h.app.inject({ method: 'GET', url: `/api/sync/states?product_ids=${product.id},999999`, headers: { cookie: session.cookie } });
      assert.equal(res.statusCode, 200, res.body);
      const { states } = res.json().data as { states: SyncEvent[] };
      assert.equal(states.length, 1, 'a product in no shop is absent');
      assert.equal(states[0].product_id, product.id);
      assert.equal(states[0].integration_id, shop.integrationId);
      assert.ok(['synced', 'pending', 'syncing'].includes(states[0].state), states[0].state);
      const bad = await h.app.inject({ method: 'GET', url: '/api/sync/states?product_ids=1,x', headers: { cookie: session.cookie } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'VALIDATION_FAILED');
      stream.close();
    });

    it("another organization's session hears none of it, and reads no state of it", async () => {
      assert.equal(otherStream.status, 200);
      assert.ok(otherStream.comments.includes('ping'), 'its stream is open and beating');
      assert.deepEqual(otherStream.events, []);
      const mine = (await h.call('GET', '/api/products/mappings?limit=100', shop.token))
        .json()
        .data.mappings.map((m: { pim_product_id: number }) => m.pim_product_id);
      assert.ok(mine.length >= 2);
      const res = await h.app.inject({ method: 'GET', url: `/api/sync/states?product_ids=${mine.join(',')}`, headers: { cookie: other.cookie } });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json().data.states, []);
    });

    it('at most 3 streams per organization here (SYNC_STREAM cap): the next is 429 RATE_LIMITED; a closed one frees its place', async () => {
      const streams = [];
      for (let i = 0; i < 3; i++) streams.push(await openStream(h.pimUrl, { cookie: session.cookie }));
      open.push(...streams);
      assert.deepEqual(
        streams.map((s) => s.status),
        [200, 200, 200],
      );
      const refused = await fetch(`${h.pimUrl}/api/sync/events`, { headers: { cookie: session.cookie } });
      assert.equal(refused.status, 429);
      assert.equal(((await refused.json()) as { code: string }).code, 'RATE_LIMITED');
      assert.ok(refused.headers.get('retry-after'));
      // The other organization has its own places.
      const theirs = await openStream(h.pimUrl, { cookie: other.cookie });
      open.push(theirs);
      assert.equal(theirs.status, 200);
      theirs.close();
      streams[0].close();
      await until('a place freed', async () => {
        const again = await openStream(h.pimUrl, { cookie: session.cookie });
        open.push(again);
        return again.status === 200;
      });
      for (const s of streams) s.close();
    });

    it('the delta sync writes its sync log (products.delta_sync): in GET /api/sync/logs, what the overview charts', async () => {
      const logs = (await h.call('GET', '/api/sync/logs?hours=1&limit=100', shop.token)).json().data.sync_logs as {
        operation: string;
        status: string;
        records_processed: number;
        records_failed: number;
      }[];
      const delta = logs.filter((l) => l.operation === 'products.delta_sync');
      assert.ok(delta.length >= 1, JSON.stringify(logs));
      assert.equal(delta[0].status, 'success');
      // The product created and its price change, at least (the two writes came less than a minute apart: one log).
      assert.ok(delta.reduce((n, l) => n + l.records_processed, 0) >= 2, JSON.stringify(delta));
      assert.equal(delta[0].records_failed, 0);
    });
  });
}
