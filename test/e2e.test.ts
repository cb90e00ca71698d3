// End to end over real HTTP: the real server as a child process (the `pimbridge` CLI: the build, or the sources
// through tsx; helpers/cli-command.ts), its first-start banner and curl commands, health and docs, the data-directory
// lock, graceful shutdown with a request in flight, restart without re-seeding, the CLI's admin commands, and a
// PostgreSQL run when TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { testDatabaseUrl } from '../src/config.js';
import { childEnv } from './helpers/bridge-processes.js';
import { testRedisUrl } from './helpers/harness.js';
import { StopWaiting, TimedOut, until } from './helpers/until.js';
import { CLI } from './helpers/cli-command.js';
import { freePort } from './helpers/free-port.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const REDIS_URL = testRedisUrl();
const STEP = { timeout: 120_000 };
/**
 * The restarted servers run with REDIS_URL when TEST_REDIS_URL is set (else in-process counters). Redis counters are
 * keyed by IP and shared by every process using this Redis: a high budget keeps others' use out of these tests.
 */
const REDIS = { ...(REDIS_URL ? { REDIS_URL } : {}), PIM_RATE_LIMIT_READ: '1000000', PIM_RATE_LIMIT_WRITE: '100000' };

interface Proc {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running: () => boolean;
}

const live = new Set<ChildProcess>();
function killAll(): void {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', killAll);

function spawnNode(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      done = true;
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, out: () => out, err: () => err, exited, running: () => !done };
}

/** Runs a CLI command to completion. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const proc = spawnNode([...CLI, ...args], env);
  const { code } = await proc.exited;
  return { code, stdout: proc.out(), stderr: proc.err() };
}

/** Waits (the one `until`) for `check`; fails at once if the server exits first. Either failure shows its output. */
async function waitFor(what: string, proc: Proc, check: () => Promise<boolean> | boolean, timeoutMs = 90_000): Promise<void> {
  const output = () => `stdout:\n${proc.out()}\nstderr:\n${proc.err()}`;
  const seen = async () => {
    if (await check()) return true;
    if (!proc.running()) throw new StopWaiting(`the server exited while waiting for ${what}\n${output()}`);
    return false;
  };
  await until(what, seen, timeoutMs, 100).catch((err: unknown) => {
    throw err instanceof TimedOut ? new Error(`${err.message}\n${output()}`) : err;
  });
}

async function ready(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200;
  } catch {
    return false;
  }
}

/** Starts `pimbridge serve` and waits until /readyz answers 200 and the banner is printed. */
async function startServer(env: Record<string, string>): Promise<{ proc: Proc; base: string; port: number }> {
  const port = await freePort();
  const proc = spawnNode([...CLI, 'serve'], { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env });
  const base = `http://127.0.0.1:${port}`;
  await waitFor('/readyz', proc, () => ready(base));
  // The banner's last line: the status curl after a demo seed (its shop connected and pushed), else the hint for new credentials.
  await waitFor('the welcome banner', proc, () => /^ {2}(curl -s \S+\/api\/status |New credentials:).*\n/m.test(proc.out()));
  return { proc, base, port };
}

/** True once a new TCP connection to the port is refused. */
async function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** Splits a shell line into words, honouring single quotes (all the banner's curl commands use). */
function shellWords(line: string): string[] {
  return [...line.trim().matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

/** Runs a printed `curl` command with fetch. */
async function runCurl(line: string): Promise<{ status: number; body: any }> {
  const words = shellWords(line);
  assert.equal(words[0], 'curl');
  let method: string | undefined;
  let data: string | undefined;
  let url: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === '-s') continue;
    else if (w === '-X') method = words[++i];
    else if (w === '-H') {
      const [name, ...value] = words[++i].split(':');
      headers[name.trim()] = value.join(':').trim();
    } else if (w === '-d') data = words[++i];
    else if (!w.startsWith('-')) url = w;
    else assert.fail(`unexpected curl option ${w} in: ${line}`);
  }
  assert.ok(url, `a URL in: ${line}`);
  const res = await fetch(url, { method: method ?? (data === undefined ? 'GET' : 'POST'), headers, body: data });
  return { status: res.status, body: await res.json() };
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

describe('end to end: embedded database', () => {
  let dataDir: string;
  let server: { proc: Proc; base: string; port: number };
  let adminToken: string;
  let demoKey: string;
  let orgsAfterCli: number;
  const adminHeaders = () => ({ authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' });

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-e2e-'));
    server = await startServer({ DATA_DIR: dataDir });
    adminToken = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).admin_token;
  });
  after(() => {
    killAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints the admin token, the demo credentials, the demo shop's token and five curl commands that work", STEP, async () => {
    const out = server.proc.out();
    assert.match(out, new RegExp(`Pimbridge is running at ${server.base} \\(embedded database in ${dataDir}`));
    assert.ok(out.includes(`Admin token: ${adminToken}`), out);
    assert.ok(out.includes(`${server.base}/docs`));
    const key = /API key:\s+(pk_\S+)/.exec(out);
    const secret = /API secret:\s+(sk_\S+)/.exec(out);
    assert.ok(key && secret, out);
    demoKey = key[1];

    const curls = out.split('\n').filter((l) => /^\s+curl /.test(l));
    assert.equal(curls.length, 5, out);
    for (const line of curls.slice(0, 3)) assert.ok(line.includes(`X-API-KEY: ${demoKey}`), line);
    const token = /Connector token:\s+(pbt_\S+)/.exec(out);
    assert.ok(token, out);
    for (const line of curls.slice(3)) assert.ok(line.includes(`Authorization: Bearer ${token[1]}`), line);
    assert.match(out, /The sandbox shop demo-store\.myshopify\.com is connected to it and the products were pushed \(10 of 10\)/);

    // The demo shop was connected and the ten products pushed before the banner: pushing one again updates it.
    const push = await runCurl(curls[3]);
    assert.equal(push.status, 200, JSON.stringify(push.body));
    assert.equal(push.body.status, 'success');
    assert.equal(push.body.data.results[0].method, 'update');
    const status = await runCurl(curls[4]);
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.equal(status.body.status, 'success');
    assert.equal(status.body.data.shop_domain, 'demo-store.myshopify.com');
    assert.equal(status.body.data.product_mapping_stats.synced, 10);
    assert.equal(status.body.data.pim_status.status, 'connected', JSON.stringify(status.body.data));
    assert.equal(status.body.data.storefront_status.status, 'connected', JSON.stringify(status.body.data));

    const list = await runCurl(curls[0]);
    assert.equal(list.status, 200);
    assert.equal(list.body.status, 1);
    assert.equal(list.body.data.products.length, 5);
    assert.equal(list.body.data.pagination.total_items, 10);
    assert.equal(list.body.data.pagination.items_per_page, 5);

    const variants = await runCurl(curls[1]);
    assert.equal(variants.status, 200);
    assert.equal(variants.body.status, 1);
    assert.ok(variants.body.data.total > 0);
    assert.equal(variants.body.data.variants.length, variants.body.data.total);

    const created = await runCurl(curls[2]);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.sku, 'MY-001');
    assert.equal(created.body.data.price, '9.9900');

    // The printed secret verifies with the printed key.
    const verify = await fetch(`${server.base}/api/auth/verify`, { headers: { 'x-api-key': demoKey, 'x-api-secret': secret[1] } });
    assert.equal(verify.status, 200);
    assert.equal(((await verify.json()) as any).data.organization.name, 'Demo Store');
  });

  it('serves /healthz, /readyz, the docs UI and the OpenAPI document', STEP, async () => {
    assert.deepEqual(await json(await fetch(`${server.base}/healthz`)), { status: 200, body: { status: 'ok' } });
    assert.deepEqual(await json(await fetch(`${server.base}/readyz`)), { status: 200, body: { status: 'ready', database: 'pglite' } });

    const docs = await fetch(`${server.base}/docs`);
    assert.equal(docs.status, 200);
    assert.match(String(docs.headers.get('content-type')), /text\/html/);
    assert.match(await docs.text(), /<html/i);

    const spec = await json(await fetch(`${server.base}/docs/openapi.json`));
    assert.equal(spec.status, 200);
    assert.equal(spec.body.openapi, '3.1.0');
    for (const p of ['/api/products', '/api/products/{id}', '/api/auth/verify', '/admin/organizations']) {
      assert.ok(spec.body.paths[p], `the OpenAPI document describes ${p}`);
    }
    assert.ok(spec.body.paths['/api/products'].get && spec.body.paths['/api/products'].post);
  });

  it('answers unauthenticated PIM requests with 401 in the envelope over HTTP', STEP, async () => {
    const res = await json(await fetch(`${server.base}/api/products`));
    assert.equal(res.status, 401);
    assert.equal(res.body.status, 0);
    assert.equal(res.body.data, null);
    assert.equal(typeof res.body.error, 'string');
  });

  it('refuses a second server on the same DATA_DIR with a clear "in use" message', STEP, async () => {
    const port = await freePort();
    const second = spawnNode([...CLI, 'serve'], { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' });
    const { code } = await second.exited;
    assert.notEqual(code, 0);
    assert.match(second.err(), /in use by another Pimbridge process/);
    assert.ok(second.err().includes(`pid ${server.proc.child.pid}`), second.err());
    assert.ok(!/\n\s+at /.test(second.err()), `no stack trace: ${second.err()}`);
    // The first server is untouched and still holds the lock.
    assert.equal(await ready(server.base), true);
    assert.equal(readFileSync(path.join(dataDir, 'pimbridge.lock'), 'utf8').trim(), String(server.proc.child.pid));
  });

  it('CLI: org create --json and key create --json print the new records, and the key works', STEP, async () => {
    const common = ['--url', server.base, '--admin-token', adminToken];
    const org = await cli([...common, 'org', 'create', '--name', 'CLI Shop', '--json']);
    assert.equal(org.code, 0, org.stderr);
    const orgJson = JSON.parse(org.stdout);
    assert.deepEqual(Object.keys(orgJson).sort(), ['active', 'id', 'name']);
    assert.equal(orgJson.name, 'CLI Shop');
    assert.equal(orgJson.active, true);

    const key = await cli([...common, 'key', 'create', '--org', String(orgJson.id), '--name', 'cli', '--json']);
    assert.equal(key.code, 0, key.stderr);
    const keyJson = JSON.parse(key.stdout);
    assert.deepEqual(Object.keys(keyJson).sort(), ['api_key', 'api_secret', 'id']);

    const products = await json(await fetch(`${server.base}/api/products`, { headers: { 'x-api-key': keyJson.api_key } }));
    assert.equal(products.status, 200);
    assert.equal(products.body.data.pagination.total_items, 0, 'a new organization sees none of the demo products');
    const verify = await json(await fetch(`${server.base}/api/auth/verify`, { headers: { 'x-api-key': keyJson.api_key, 'x-api-secret': keyJson.api_secret } }));
    assert.deepEqual(verify.body.data, { organization: { id: orgJson.id, name: 'CLI Shop', active: true }, key_id: keyJson.id });

    const list = await cli([...common, 'org', 'list', '--json']);
    assert.equal(list.code, 0, list.stderr);
    const names = JSON.parse(list.stdout).organizations.map((o: { name: string }) => o.name);
    assert.deepEqual(names, ['Demo Store', 'CLI Shop']);
    orgsAfterCli = names.length;

    // The CLI finds the admin token in DATA_DIR/secrets.json when none is given.
    const fromDataDir = await cli(['--url', server.base, 'org', 'list', '--json'], { DATA_DIR: dataDir });
    assert.equal(fromDataDir.code, 0, fromDataDir.stderr);
    assert.equal(JSON.parse(fromDataDir.stdout).organizations.length, 2);

    // Revoking through the CLI stops the key.
    const revoke = await cli([...common, 'key', 'revoke', String(keyJson.id)]);
    assert.equal(revoke.code, 0, revoke.stderr);
    assert.match(revoke.stdout, new RegExp(`API key ${keyJson.id} revoked`));
    assert.equal((await fetch(`${server.base}/api/products`, { headers: { 'x-api-key': keyJson.api_key } })).status, 401);

    // `org delete` removes an organization with its keys: its key stops working and the list no longer shows it.
    const doomed = JSON.parse((await cli([...common, 'org', 'create', '--name', 'CLI Doomed', '--json'])).stdout);
    const doomedKey = JSON.parse((await cli([...common, 'key', 'create', '--org', String(doomed.id), '--json'])).stdout);
    assert.equal((await fetch(`${server.base}/api/products`, { headers: { 'x-api-key': doomedKey.api_key } })).status, 200);
    const deleted = await cli([...common, 'org', 'delete', String(doomed.id)]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, new RegExp(`Organization ${doomed.id} deleted`));
    assert.equal((await fetch(`${server.base}/api/products`, { headers: { 'x-api-key': doomedKey.api_key } })).status, 401);
    const remaining = JSON.parse((await cli([...common, 'org', 'list', '--json'])).stdout).organizations.map((o: { name: string }) => o.name);
    assert.deepEqual(remaining, ['Demo Store', 'CLI Shop']);
    const again = await cli([...common, 'org', 'delete', String(doomed.id)]);
    assert.equal(again.code, 1, 'deleting it twice is an error');
  });

  it('CLI: errors exit 1 with a one-line message (wrong token, unknown organization, unreachable server)', STEP, async () => {
    const wrong = await cli(['--url', server.base, '--admin-token', 'not-the-admin-token', 'org', 'list']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^401: /);
    assert.ok(!/\n\s+at /.test(wrong.stderr), wrong.stderr);

    const unknown = await cli(['--url', server.base, '--admin-token', adminToken, 'key', 'create', '--org', '999999', '--json']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^404: .*999999/);

    const badId = await cli(['--url', server.base, '--admin-token', adminToken, 'key', 'create', '--org', 'abc']);
    assert.equal(badId.code, 1);
    assert.match(badId.stderr, /positive integer/);

    const down = await cli(['--url', `http://127.0.0.1:${await freePort()}`, '--admin-token', adminToken, 'org', 'list']);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /Cannot reach Pimbridge/);
  });

  it('bin/pimbridge.js (npm start) builds dist/ when needed and runs the same CLI', { timeout: 240_000 }, async () => {
    const proc = spawnNode(['bin/pimbridge.js', '--url', server.base, '--admin-token', adminToken, 'org', 'list', '--json'], {});
    const { code } = await proc.exited;
    assert.equal(code, 0, proc.err());
    assert.deepEqual(
      JSON.parse(proc.out()).organizations.map((o: { name: string }) => o.name),
      ['Demo Store', 'CLI Shop'],
    );
    assert.ok(existsSync(path.join(ROOT, 'dist', 'cli', 'main.js')));
  });

  it('SIGTERM: stops accepting, lets the request in flight finish, exits 0 and releases the lock', STEP, async () => {
    const body = JSON.stringify({ name: 'In flight', sku: 'INFLIGHT-1', price: '1.50' });
    // Expect: 100-continue makes the server confirm it has taken the request before the body is sent.
    const req = http.request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/api/products',
      agent: false,
      headers: { 'x-api-key': demoKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    await once(req, 'continue');

    server.proc.child.kill('SIGTERM');
    // Shutdown has begun once new connections are refused; the request taken before is still open.
    await waitFor('the listener to close', server.proc, () => refusesConnections(server.port), 15_000);
    req.end(body);

    const res = await response;
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.sku, 'INFLIGHT-1');

    const { code, signal } = await server.proc.exited;
    assert.equal(signal, null);
    assert.equal(code, 0, server.proc.err());
    assert.equal(existsSync(path.join(dataDir, 'pimbridge.lock')), false, 'the lock file is removed');
  });

  it(`restart on the same DATA_DIR${REDIS_URL ? ' (now with REDIS_URL)' : ''} keeps the data and does not seed again`, STEP, async () => {
    const secretsBefore = readFileSync(path.join(dataDir, 'secrets.json'), 'utf8');
    server = await startServer({ DATA_DIR: dataDir, ...REDIS });
    const out = server.proc.out();
    assert.ok(!out.includes('API key:'), out);
    // How to sign in to the demo organization again: the command printed makes a key that reads its catalogue.
    const demoOrg =
      /The demo organization "Demo Store" \(id (\d+)\) is here\. A new API key and secret to sign in to it:\n {2}npx pimbridge key create --org (\d+)\n/.exec(
        out,
      );
    assert.ok(demoOrg && demoOrg[1] === demoOrg[2], out);
    const made = await cli(['key', 'create', '--org', demoOrg[1]!, '--json'], { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(server.port) });
    assert.equal(made.code, 0, made.stderr);
    const newKey = JSON.parse(made.stdout) as { api_key: string };
    const demoList = await json(await fetch(`${server.base}/api/products?limit=1`, { headers: { 'x-api-key': newKey.api_key } }));
    assert.equal(demoList.body.data.pagination.total_items, 12);
    assert.ok(!out.includes(adminToken), 'the admin token is not printed again');
    assert.ok(out.includes(`Admin token: in ${dataDir}/secrets.json`), out);
    assert.match(out, /New credentials: npx pimbridge org create/);
    assert.equal(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'), secretsBefore);

    const orgs = await json(await fetch(`${server.base}/admin/organizations`, { headers: adminHeaders() }));
    assert.equal(orgs.status, 200);
    assert.equal(orgs.body.organizations.length, orgsAfterCli);

    // The demo key, the product made by the curl command and the one finished during shutdown are all there.
    const list = await json(await fetch(`${server.base}/api/products?limit=100`, { headers: { 'x-api-key': demoKey } }));
    assert.equal(list.status, 200);
    const skus = list.body.data.products.map((p: { sku: string }) => p.sku);
    assert.equal(list.body.data.pagination.total_items, 12);
    assert.ok(skus.includes('MY-001') && skus.includes('INFLIGHT-1'), skus.join(', '));
    assert.equal(skus.filter((s: string) => s.startsWith('DEMO-')).length, 10);

    server.proc.child.kill('SIGTERM');
    const { code } = await server.proc.exited;
    assert.equal(code, 0, server.proc.err());
  });
});

const postgresUrl = testDatabaseUrl();
if (postgresUrl) {
  describe('end to end: PostgreSQL', () => {
    const dbName = `pimbridge_e2e_${process.pid}_${randomBytes(3).toString('hex')}`;
    const adminToken = `e2e-admin-${randomBytes(16).toString('hex')}`;
    let dataDir: string;
    let server: { proc: Proc; base: string; port: number };
    let databaseUrl: string;
    const adminHeaders = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };

    async function onMaintenance(sql: string): Promise<void> {
      const client = new pg.Client({ connectionString: postgresUrl! });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    }

    before(async () => {
      await onMaintenance(`CREATE DATABASE ${dbName}`);
      const url = new URL(postgresUrl);
      url.pathname = `/${dbName}`;
      databaseUrl = url.toString();
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-e2e-pg-'));
      server = await startServer({
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        ADMIN_TOKEN: adminToken,
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        METRICS_TOKEN: 'metrics-token-0123456789',
        ...REDIS,
      });
    });
    after(async () => {
      killAll();
      rmSync(dataDir, { recursive: true, force: true });
      await onMaintenance(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    });

    it('starts on PostgreSQL without demo data and without touching DATA_DIR', STEP, async () => {
      const out = server.proc.out();
      assert.match(out, /\(PostgreSQL, role all, ready in \d+ ms\)/);
      assert.ok(out.includes('Admin token: (ADMIN_TOKEN)'), out);
      assert.ok(!out.includes(adminToken), 'the given admin token is not printed');
      assert.ok(!out.includes('demo organization'), out);
      assert.deepEqual(await json(await fetch(`${server.base}/readyz`)), { status: 200, body: { status: 'ready', database: 'postgres' } });
      assert.equal(existsSync(path.join(dataDir, 'secrets.json')), false);
      assert.equal(existsSync(path.join(dataDir, 'pimbridge.lock')), false);
      const orgs = await json(await fetch(`${server.base}/admin/organizations`, { headers: adminHeaders }));
      assert.deepEqual(orgs, { status: 200, body: { organizations: [] } });
    });

    it('a product round trip over HTTP', STEP, async () => {
      const org = await json(
        await fetch(`${server.base}/admin/organizations`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ name: 'PG Shop' }) }),
      );
      assert.equal(org.status, 201);
      const key = await json(await fetch(`${server.base}/admin/organizations/${org.body.id}/api-keys`, { method: 'POST', headers: adminHeaders, body: '{}' }));
      assert.equal(key.status, 201);
      const auth = { 'x-api-key': key.body.api_key };
      const headers = { ...auth, 'content-type': 'application/json' };

      const created = await json(
        await fetch(`${server.base}/api/products`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'Postgres Mug', sku: 'PG-MUG-1', price: '12.5', stock: 3, status: 'active', publishing_channels: ['web'] }),
        }),
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.data.id;
      assert.equal(created.body.data.price, '12.5000');
      assert.equal(created.body.data.stock, 3);

      const fetched = await json(await fetch(`${server.base}/api/products/${id}`, { headers: auth }));
      assert.equal(fetched.status, 200);
      assert.deepEqual(fetched.body, created.body);

      const patched = await json(await fetch(`${server.base}/api/products/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ price: '14.0000' }) }));
      assert.equal(patched.status, 200);
      assert.equal(patched.body.data.price, '14.0000');
      assert.equal(patched.body.data.name, 'Postgres Mug');

      const found = await json(await fetch(`${server.base}/api/products?search=mug`, { headers: auth }));
      assert.equal(found.status, 200);
      assert.deepEqual(
        found.body.data.products.map((p: { id: number }) => p.id),
        [id],
      );
      assert.equal(found.body.data.products[0].price, '14.0000');

      const deleted = await json(await fetch(`${server.base}/api/products/${id}`, { method: 'DELETE', headers: auth }));
      assert.equal(deleted.status, 200);
      assert.equal(deleted.body.data.status, 'archived');
      const afterDelete = await json(await fetch(`${server.base}/api/products/${id}`, { headers: auth }));
      assert.equal(afterDelete.body.data.status, 'archived');

      const verify = await json(
        await fetch(`${server.base}/api/auth/verify`, { headers: { 'x-api-key': key.body.api_key, 'x-api-secret': key.body.api_secret } }),
      );
      assert.equal(verify.status, 200);
      assert.equal(verify.body.data.organization.name, 'PG Shop');
    });

    it('`pimbridge migrate` on the running database is idempotent', STEP, async () => {
      const res = await cli(['migrate'], {
        DATABASE_URL: databaseUrl,
        ADMIN_TOKEN: adminToken,
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        METRICS_TOKEN: 'metrics-token-0123456789',
      });
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /Migrations applied \(postgres\)/);
    });

    it('SIGTERM exits 0', STEP, async () => {
      server.proc.child.kill('SIGTERM');
      const { code, signal } = await server.proc.exited;
      assert.equal(signal, null);
      assert.equal(code, 0, server.proc.err());
    });
  });
}
