// Real processes for the bridge's reliability tests and the push benchmark: the Shopify sandbox as a process of its
// own (`pimbridge sandbox --port N`) and the bridge (`pimbridge serve`) as another, each on a database of its own
// (PostgreSQL: two fresh databases; PGlite: two data directories), so the bridge can be SIGKILLed and restarted on
// the same database while the store keeps running. Also: products with variants and images seeded through the PIM API
// (the images served by a local HTTP server), the sandbox store and its token, the shop and the connect.
//
// The standalone sandbox has no admin surface (PATCH /admin/shops/{id}/sandbox lives in the bridge and configures the
// bridge's built-in sandbox), so its store is created, and its throttle and fault settings written, directly in the
// sandbox's database while the sandbox process is stopped; the sandbox is then started again on the same port. With
// PGlite nothing else could open its data directory while it runs anyway.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.js';
import { SandboxStoreRepository } from '../../src/sandbox/sandbox-store.repository.js';
import { SandboxStoreService, type SandboxConfigInput } from '../../src/sandbox/sandbox-store.service.js';
import { sandboxMigrations } from '../../src/sandbox/sandbox.module.js';
import { freePort } from './connector.js';
import { makeImage, serveHttp, type TestServer } from './servers.js';
import { StopWaiting, TimedOut, until } from './until.js';
import { CLI } from './cli-command.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const SANDBOX_API_VERSION = '2026-10';

/** Variables the server reads: children get only what the harness gives them. */
const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'REDIS_URL',
  'ADMIN_TOKEN',
  'ENCRYPTION_KEY',
  'SHOPIFY_SANDBOX',
  'SEED_DEMO',
  'PIM_RATE_LIMIT_READ',
  'PIM_RATE_LIMIT_WRITE',
  'AUTH_RATE_LIMIT',
  'MEDIA_ALLOW_PRIVATE_NETWORKS',
  'CONNECTOR_ALLOW_PRIVATE_NETWORKS',
  'PUBLIC_URL',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'PIMBRIDGE_URL',
  'NODE_TEST_CONTEXT',
  'TEST_DATABASE_URL',
];

/** The environment of a child server: this process's, without any variable the server reads, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete base[name];
  return { ...base, ...env };
}

export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running: () => boolean;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export function spawnCli(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let output = '';
  // Keep the last 20 kB only: a long run's warnings must not grow without bound.
  const keep = (d: string) => (output = (output + d).slice(-20_000));
  child.stdout!.setEncoding('utf8').on('data', keep);
  child.stderr!.setEncoding('utf8').on('data', keep);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      done = true;
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, output: () => output, exited, running: () => !done };
}

/** Waits (the one `until`) for a 200 from `url`; fails at once if the process exits first. */
export async function waitForHttp(what: string, proc: Proc, url: string, timeoutMs = 60_000): Promise<void> {
  const answers = async () => {
    if (!proc.running()) throw new StopWaiting(`${what} exited before answering\n${proc.output()}`);
    // A refused connection (not listening yet) throws: tried again.
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  };
  await until(what, answers, timeoutMs, 50).catch((err: unknown) => {
    throw err instanceof TimedOut ? new Error(`${what} did not answer 200 on ${url} within ${timeoutMs} ms\n${proc.output()}`) : err;
  });
}

export async function stopProc(proc: Proc | null, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!proc?.running()) return;
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await proc.exited;
  clearTimeout(timer);
}

/** Where a process keeps its data: a fresh PostgreSQL database or a fresh PGlite data directory. */
export interface Storage {
  env: Record<string, string>;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function freshStorage(kind: 'pglite' | 'postgres', label: string, pgBaseUrl?: string): Promise<Storage> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), `pimbridge-${label}-`));
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!pgBaseUrl) throw new Error('a PostgreSQL base URL is needed');
  const name = `pimbridge_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: pgBaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(pgBaseUrl), { pathname: `/${name}` }).toString();
  // The data directory is never used on PostgreSQL, but a server still wants a writable one for nothing in particular.
  const dataDir = mkdtempSync(path.join(tmpdir(), `pimbridge-${label}-`));
  return {
    // With DATABASE_URL, /metrics has a token of its own (config.ts).
    env: { DATABASE_URL: url, DATA_DIR: dataDir, METRICS_TOKEN: 'metrics-token-0123456789' },
    open: () => openDatabase({ kind: 'postgres', url, poolSize: 2 }),
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The sandbox store's throttle and fault settings (as PATCH /admin/shops/{id}/sandbox takes them; null bucket values follow the plan). */
export type SandboxSettings = SandboxConfigInput;

export const NO_FAULTS: SandboxSettings = { error_rate: 0, timeout_rate: 0, fail_after_commit_rate: 0, latency_ms: 0, bucket_size: null, restore_rate: null };

export interface SeededProduct {
  id: number;
  sku: string;
  slug: string;
  variantSkus: string[];
  imageCount: number;
}

export interface BridgeStackOptions {
  kind: 'pglite' | 'postgres';
  /** PostgreSQL server URL (any database) when kind is postgres. */
  pgBaseUrl?: string;
  domain?: string;
  logLevel?: string;
  /** Extra environment of the bridge process. */
  bridgeEnv?: Record<string, string>;
  /**
   * Put a recording proxy between the bridge and the sandbox (the shop's api_base_url points at it): every call's
   * operation name, HTTP status and `extensions.cost` land in `calls` (the benchmark reads the sandbox's cost figures there).
   * Its calls can be held (`shopHolds`).
   */
  recordCalls?: boolean;
  /** Put a pass-through proxy between the connector and the PIM it reads (the integration's pim_base_url): `pimHolds`. */
  pimProxy?: boolean;
  /** PostgreSQL: `pimbridge serve --role worker` processes beside the bridge (which runs jobs too), on its database. */
  extraWorkers?: number;
}

/** One call through a proxy, as a hold sees it. */
export interface ProxiedCall {
  method: string;
  /** The path and query. */
  url: string;
  /** The GraphQL operation's name ('?' for anything else). */
  operation: string;
  body: string;
}

/**
 * Holds on the calls through a proxy (tests race the bridge's writers with them): each returns what to wait for, or
 * null to go on at once. `request`: before the call goes on; `answer`: after the answer came back, before the bridge
 * gets it (the call has been applied). A hold longer than the bridge's call timeout (5 s to a shop) times the call out.
 */
export interface ProxyHolds {
  request: ((call: ProxiedCall) => Promise<void> | null) | null;
  answer: ((call: ProxiedCall & { status: number }) => Promise<void> | null) | null;
}

/** One storefront call of the bridge, as the recording proxy saw it. */
export interface StorefrontCall {
  /** performance.now() when the request came in, and when the answer came back. */
  sent: number;
  at: number;
  operation: string;
  /** The sandbox's HTTP status; 0 when the bridge gave up first (a timeout fault holds the answer until then). */
  status: number;
  throttled: boolean;
  requestedCost: number | null;
  actualCost: number | null;
  currentlyAvailable: number | null;
  /** productSet only: the answer carried a product and no userErrors. */
  productSetOk: boolean;
}

const proxyAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request to the sandbox, its answer read whole. */
function forward(
  url: string,
  o: { method: string; headers: Record<string, string>; body: Buffer; signal: AbortSignal },
): Promise<{ status: number; contentType: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: o.method, headers: { ...o.headers, 'content-length': String(o.body.length) }, agent: proxyAgent, signal: o.signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(chunks) }));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(o.body);
  });
}

/** A pass-through HTTP proxy to `target` that records each GraphQL call, and holds those `holds` says to. */
async function recordingProxy(target: string, calls: StorefrontCall[], holds?: ProxyHolds): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const sent = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
      const aborted = new AbortController();
      res.on('close', () => aborted.abort());
      let operation = '?';
      try {
        const q = JSON.parse(body.toString('utf8')) as { query?: string; operationName?: string };
        operation = q.operationName ?? /\b(?:query|mutation)\s+(\w+)/.exec(q.query ?? '')?.[1] ?? '?';
      } catch {
        // not JSON
      }
      const seen: ProxiedCall = { method: req.method ?? 'GET', url: req.url ?? '/', operation, body: body.toString('utf8') };
      // node:http with a keep-alive agent, not fetch: the proxy shares the CPUs with what the benchmark measures.
      (async () => {
        await holds?.request?.(seen);
        const upstream = await forward(`${target}${req.url}`, { method: req.method ?? 'GET', headers, body, signal: aborted.signal });
        await holds?.answer?.({ ...seen, status: upstream.status });
        return upstream;
      })()
        .then((upstream) => {
          const text = upstream.body.toString('utf8');
          let parsed: any = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            // a non-JSON answer
          }
          const cost = parsed?.extensions?.cost;
          const throttled = Array.isArray(parsed?.errors) && parsed.errors.some((e: any) => e?.extensions?.code === 'THROTTLED');
          const ps = parsed?.data?.productSet;
          calls.push({
            sent,
            at: performance.now(),
            operation,
            status: upstream.status,
            throttled,
            requestedCost: cost?.requestedQueryCost ?? null,
            actualCost: cost?.actualQueryCost ?? null,
            currentlyAvailable: cost?.throttleStatus?.currentlyAvailable ?? null,
            productSetOk: Boolean(ps?.product && Array.isArray(ps.userErrors) && ps.userErrors.length === 0),
          });
          res.writeHead(upstream.status, { 'content-type': upstream.contentType ?? 'application/json' }).end(upstream.body);
        })
        .catch(() => {
          if (aborted.signal.aborted) {
            calls.push({
              sent,
              at: performance.now(),
              operation,
              status: 0,
              throttled: false,
              requestedCost: null,
              actualCost: null,
              currentlyAvailable: null,
              productSetOk: false,
            });
          }
          res.destroy();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface BridgeStack {
  kind: 'pglite' | 'postgres';
  bridgeUrl: string;
  sandboxUrl: string;
  domain: string;
  /** The shop's api_base_url: http://127.0.0.1:port/sandbox/shopify/{domain} (of the recording proxy with recordCalls). */
  apiBaseUrl: string;
  /** With recordCalls: the bridge's storefront calls, in the order their answers came back. */
  calls: StorefrontCall[];
  /** With recordCalls: holds on the bridge's storefront calls (none set: every call goes on at once). */
  shopHolds: ProxyHolds;
  /** With pimProxy: holds on the connector's PIM calls. */
  pimHolds: ProxyHolds;
  sandboxToken: string;
  /** The sandbox store's own app (its client credentials; PATCH /admin/shops/{shopId} switches the shop to them). */
  sandboxApp: { clientId: string; clientSecret: string };
  /** PostgreSQL only: the bridge's own database (benchmarks bulk-load a catalogue there); null on PGlite. */
  bridgeDatabaseUrl: string | null;
  /** The connector's admin-scope bearer token (admin ⊃ write ⊃ read). */
  connectorToken: string;
  integrationId: number;
  shopId: number;
  tenant: { organizationId: number; apiKey: string; apiSecret: string };
  images: TestServer;
  bridge: () => Proc;
  sandbox: () => Proc;
  /** SIGKILL the bridge (no graceful shutdown) and wait until it is gone. */
  killBridge(): Promise<void>;
  /** Start the bridge again on the same database, port and secrets (`env`: variables changed from now on). */
  startBridge(env?: Record<string, string>): Promise<void>;
  /** PostgreSQL: one more `pimbridge serve --role <role>` node on the bridge's database and secrets, ready. */
  startNode(role: 'api' | 'worker' | 'all'): Promise<{ proc: Proc; url: string }>;
  /**
   * Writes the sandbox store's settings (SandboxStoreService.configure on the sandbox's database; a new configuration
   * version, so a fresh, full bucket and a restarted fault sequence). PostgreSQL: while the sandbox runs (it reads its
   * store on every call). PGlite: the sandbox is stopped, configured and started again on the same port.
   */
  configureSandbox(settings: SandboxSettings): Promise<void>;
  /** Admin API of the bridge (plain JSON). */
  admin(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** PIM core API as the tenant. */
  pim(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Connector API with the connector token. */
  connector(method: string, url: string, body?: unknown, init?: { signal?: AbortSignal }): Promise<{ status: number; body: any }>;
  /** POST /api/products/push with `{products: [{id}, …]}`. */
  push(ids: number[], init?: { signal?: AbortSignal }): Promise<{ status: number; body: any }>;
  /** The sandbox's Admin GraphQL API with the store's token; throws on transport errors or GraphQL errors. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /**
   * products with variants and images through the PIM API; `images` per product (distinct pictures), `channels` their
   * publishing channels, `categoryIds` one category each (taken in turn), `locales` a translation (name and description)
   * in each.
   */
  seedProducts(
    count: number,
    options?: { variants?: number; images?: number; prefix?: string; channels?: string[]; categoryIds?: number[]; locales?: string[] },
  ): Promise<SeededProduct[]>;
  close(): Promise<void>;
}

async function request(url: string, method: string, headers: Record<string, string>, body?: unknown, signal?: AbortSignal) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as any };
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

let stacks = 0;

export async function startBridgeStack(o: BridgeStackOptions): Promise<BridgeStack> {
  const tag = `${process.pid}-${++stacks}-${randomBytes(2).toString('hex')}`;
  const domain = o.domain ?? `bridge-${tag}.myshopify.com`;
  const logLevel = o.logLevel ?? 'warn';
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => {});
    cleanups.length = 0;
  };
  try {
    // Images: a distinct PNG per path, made on demand and cached.
    const pictures = new Map<string, Buffer>();
    const images = await serveHttp((req, res) => {
      const n = Number(/^\/img\/(\d+)\.png$/.exec(req.url ?? '')?.[1] ?? NaN);
      if (!Number.isInteger(n)) {
        res.writeHead(404).end();
        return;
      }
      const key = String(n);
      const cached = pictures.get(key);
      const send = (buf: Buffer) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': buf.length }).end(buf);
      if (cached) send(cached);
      else
        void makeImage('png', 24, 18, [(n * 37) % 256, (n * 91) % 256, (n * 53) % 256]).then((buf) => {
          pictures.set(key, buf);
          send(buf);
        });
    });
    cleanups.push(() => images.close());

    // The sandbox: its database, its store (and token), then its process.
    const sandboxStorage = await freshStorage(o.kind, 'sandbox', o.pgBaseUrl);
    cleanups.push(() => sandboxStorage.drop());
    const sandboxDbDo = async <T>(fn: (db: Database) => Promise<T>): Promise<T> => {
      const db = await sandboxStorage.open();
      try {
        await db.migrate(sandboxMigrations);
        return await fn(db);
      } finally {
        await db.close();
      }
    };
    const {
      accessToken: sandboxToken,
      clientId,
      clientSecret,
    } = await sandboxDbDo(async (db) => {
      const stores = new SandboxStoreService(new SandboxStoreRepository(db.db));
      const made = await stores.create(domain);
      // The products' images are the bridge's media on 127.0.0.1: a private address, which the sandbox (as Shopify)
      // does not fetch unless the store allows it (docs/sandbox/media.md).
      await stores.configure(domain, { allow_private_media_sources: true });
      return made;
    });
    const sandboxPort = await freePort();
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    let sandboxProc: Proc | null = null;
    const startSandbox = async () => {
      sandboxProc = spawnCli(['sandbox', '--port', String(sandboxPort), '--host', '127.0.0.1'], { ...sandboxStorage.env, LOG_LEVEL: logLevel });
      await waitForHttp('the sandbox', sandboxProc, `${sandboxUrl}/healthz`);
    };
    await startSandbox();
    cleanups.push(() => stopProc(sandboxProc));

    // The bridge: its own database, fixed port and secrets, so a restart is the same installation.
    const bridgeStorage = await freshStorage(o.kind, 'bridge', o.pgBaseUrl);
    cleanups.push(() => bridgeStorage.drop());
    const bridgePort = await freePort();
    const bridgeUrl = `http://127.0.0.1:${bridgePort}`;
    const adminToken = `bridge-admin-${randomBytes(16).toString('hex')}`;
    const bridgeEnv = {
      ...bridgeStorage.env,
      HOST: '127.0.0.1',
      PORT: String(bridgePort),
      PUBLIC_URL: bridgeUrl,
      ADMIN_TOKEN: adminToken,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SEED_DEMO: 'false',
      SHOPIFY_SANDBOX: 'false',
      MEDIA_ALLOW_PRIVATE_NETWORKS: 'true',
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      PIM_RATE_LIMIT_READ: '10000000',
      PIM_RATE_LIMIT_WRITE: '9999999',
      AUTH_RATE_LIMIT: '10000000',
      LOG_LEVEL: logLevel,
      ...o.bridgeEnv,
    };
    let bridgeProc: Proc | null = null;
    const startBridge = async (env: Record<string, string> = {}) => {
      Object.assign(bridgeEnv, env);
      bridgeProc = spawnCli(['serve'], bridgeEnv);
      await waitForHttp('the bridge', bridgeProc, `${bridgeUrl}/readyz`);
    };
    await startBridge();
    cleanups.push(() => stopProc(bridgeProc));
    let nodes = 0;
    const startNode: BridgeStack['startNode'] = async (role) => {
      if (o.kind !== 'postgres') throw new Error('more nodes need PostgreSQL');
      const port = await freePort();
      const proc = spawnCli(['serve', '--role', role], { ...bridgeEnv, PORT: String(port) });
      cleanups.push(() => stopProc(proc));
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`node ${++nodes} (role ${role})`, proc, `${url}/readyz`);
      return { proc, url };
    };
    for (let i = 0; i < (o.extraWorkers ?? 0); i++) await startNode('worker');

    const adminHeaders = { authorization: `Bearer ${adminToken}` };
    const admin: BridgeStack['admin'] = (method, url, body) => request(`${bridgeUrl}${url}`, method, adminHeaders, body);
    const expect = (what: string, res: { status: number; body: any }, status: number) => {
      if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    const org = expect('organization', await admin('POST', '/admin/organizations', { name: `Bridge ${tag}` }), 201);
    const key = expect('API key', await admin('POST', `/admin/organizations/${org.id}/api-keys`, { name: 'bridge tests' }), 201);
    const tenant = { organizationId: org.id as number, apiKey: key.api_key as string, apiSecret: key.api_secret as string };
    const pim: BridgeStack['pim'] = (method, url, body) => request(`${bridgeUrl}${url}`, method, { 'x-api-key': tenant.apiKey }, body);

    const calls: StorefrontCall[] = [];
    const shopHolds: ProxyHolds = { request: null, answer: null };
    const pimHolds: ProxyHolds = { request: null, answer: null };
    let shopOrigin = sandboxUrl;
    if (o.recordCalls) {
      const proxy = await recordingProxy(sandboxUrl, calls, shopHolds);
      cleanups.push(proxy.close);
      shopOrigin = proxy.url;
    }
    let pimBaseUrl = bridgeUrl;
    if (o.pimProxy) {
      const proxy = await recordingProxy(bridgeUrl, [], pimHolds);
      cleanups.push(proxy.close);
      pimBaseUrl = proxy.url;
    }
    const apiBaseUrl = `${shopOrigin}/sandbox/shopify/${domain}`;
    const shop = expect(
      'shop',
      await admin('POST', '/admin/shops', {
        platform: 'shopify',
        domain,
        organization_id: tenant.organizationId,
        access_token: sandboxToken,
        api_base_url: apiBaseUrl,
      }),
      201,
    );
    const connect = expect(
      'connect',
      await request(
        `${bridgeUrl}/api/connect`,
        'POST',
        {},
        { shop_domain: domain, pim_base_url: pimBaseUrl, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret },
      ),
      200,
    );
    const connectorToken = connect.data.api_token as string;
    const connector: BridgeStack['connector'] = (method, url, body, init) =>
      request(`${bridgeUrl}${url}`, method, { authorization: `Bearer ${connectorToken}` }, body, init?.signal);

    let pictureCounter = 0;
    const stack: BridgeStack = {
      kind: o.kind,
      bridgeUrl,
      sandboxUrl,
      domain,
      apiBaseUrl,
      calls,
      shopHolds,
      pimHolds,
      sandboxToken,
      sandboxApp: { clientId, clientSecret },
      bridgeDatabaseUrl: bridgeStorage.env.DATABASE_URL ?? null,
      connectorToken,
      integrationId: connect.data.integration_id,
      shopId: shop.id,
      tenant,
      images,
      bridge: () => bridgeProc!,
      sandbox: () => sandboxProc!,
      async killBridge() {
        await stopProc(bridgeProc, 'SIGKILL');
      },
      startBridge,
      startNode,
      async configureSandbox(settings) {
        const restart = o.kind === 'pglite';
        if (restart) await stopProc(sandboxProc);
        const view = await sandboxDbDo((db) => new SandboxStoreService(new SandboxStoreRepository(db.db)).configure(domain, settings));
        if (!view) throw new Error(`sandbox store ${domain} not found`);
        if (restart) await startSandbox();
      },
      admin,
      pim,
      connector,
      push: (ids, init) => connector('POST', '/api/products/push', { products: ids.map((id) => ({ id })) }, init),
      async graphql(query, variables = {}) {
        const res = await request(
          `${sandboxUrl}/sandbox/shopify/${domain}/admin/api/${SANDBOX_API_VERSION}/graphql.json`,
          'POST',
          { 'x-shopify-access-token': sandboxToken },
          { query, variables },
        );
        if (res.status !== 200 || !res.body || res.body.errors) throw new Error(`sandbox GraphQL: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.data;
      },
      async seedProducts(count, so = {}) {
        const variants = so.variants ?? 2;
        const perProduct = so.images ?? 1;
        const prefix = so.prefix ?? `P${tag}`;
        return inBatches(
          Array.from({ length: count }, (_, i) => i),
          4,
          async (i) => {
            const sku = `${prefix}-${i + 1}`;
            const product = expect(
              'product',
              await pim('POST', '/api/products', {
                name: `Bridge product ${prefix} ${i + 1}`,
                sku,
                description: `<p>Product ${i + 1} of the bridge tests.</p>`,
                price: `${10 + (i % 50)}.99`,
                status: 'active',
                ...(so.channels ? { publishing_channels: so.channels } : {}),
                ...(so.categoryIds?.length ? { category_ids: [so.categoryIds[i % so.categoryIds.length]] } : {}),
              }),
              201,
            ).data;
            for (const locale of so.locales ?? []) {
              expect(
                'translation',
                await pim('PUT', `/api/products/${product.id}/translations/${locale}`, {
                  name: `Bridge product ${prefix} ${i + 1} (${locale})`,
                  description: `<p>Product ${i + 1} (${locale}).</p>`,
                }),
                200,
              );
            }
            const variantSkus: string[] = [];
            for (let v = 0; v < variants; v++) {
              const vsku = `${sku}-V${v + 1}`;
              expect(
                'variant',
                await pim('POST', `/api/products/${product.id}/variants`, {
                  sku: vsku,
                  name: `Size ${['S', 'M', 'L', 'XL'][v % 4]}${v >= 4 ? v : ''}`,
                  price: `${10 + (i % 50)}.99`,
                  stock_quantity: 5 + v,
                  attributes: [{ attribute_name: 'Size', value: `${['S', 'M', 'L', 'XL'][v % 4]}${v >= 4 ? v : ''}` }],
                }),
                201,
              );
              variantSkus.push(vsku);
            }
            for (let m = 0; m < perProduct; m++) {
              expect(
                'media',
                await pim('POST', `/api/products/${product.id}/media`, {
                  file_url: `${images.url}/img/${++pictureCounter}.png`,
                  alt_text: `${sku} picture ${m + 1}`,
                }),
                201,
              );
            }
            return { id: product.id as number, sku, slug: product.slug as string, variantSkus, imageCount: perProduct };
          },
        );
      },
      close,
    };
    return stack;
  } catch (err) {
    await close();
    throw err;
  }
}

/** Every mapping of the stack's integration, through GET /api/products/mappings (pages of 100). */
export async function allMappings(
  s: BridgeStack,
): Promise<{ pim_product_id: number; storefront_product_id: number | null; sync_status: string; sync_error: string | null }[]> {
  const out = [];
  for (let offset = 0; ; offset += 100) {
    const res = await s.connector('GET', `/api/products/mappings?limit=100&offset=${offset}`);
    if (res.status !== 200) throw new Error(`GET /api/products/mappings: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.data.mappings);
    if (!res.body.data.pagination.has_more) return out;
  }
}

/** The sandbox over GraphQL, waiting out its bucket (tried again every 200 ms, 20 s at most) when a check itself is throttled. */
export async function gql<T>(s: BridgeStack, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answered = await until(
    'a sandbox query past its throttle',
    async () => {
      try {
        return { data: await s.graphql<T>(query, variables) };
      } catch (err) {
        if (/THROTTLED/.test(String(err))) throw err;
        throw new StopWaiting('the sandbox query failed', { cause: err });
      }
    },
    20_000,
    200,
  );
  return answered.data;
}
