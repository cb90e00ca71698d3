// The findings about files and addresses, each shown by a test that failed before its fix:
// - item 3: DATA_DIR and everything under it private to the server's user (folders 0700, files 0600), on a first start
//   and for existing data left 0666 by an older version, with one `warn` line when a mode cannot be set;
// - item 4: the sandbox fetches media `originalSource` from public addresses only, as Shopify's servers do; a store's
//   `allow_private_media_sources` lifts it (the tests' setting);
// - item 5: a private, loopback or link-local pim_base_url other than this server's own PUBLIC_URL is refused by default
//   (embedded mode too), answered as an unreachable PIM (connect 503 CONNECTION_FAILED, update 503 VALIDATION_FAILED)
//   with the rule, never what answered there;
// - item 8: an address-policy refusal names the rule and the range, never the address a host name resolved to.
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { publicAddressesOnly } from '../src/lib/address-policy.js';
import { agentFetch } from '../src/lib/keep-alive.js';
import { makeDataDirPrivate, makePrivate, privacyWarning } from '../src/lib/private-files.js';
import { AddressRefusedError, checkedAgents, DownloadError, filteredLookup, SafeDownloader, systemResolver } from '../src/lib/safe-download.js';
import { loadConfig } from '../src/config.js';
import { childEnv } from './helpers/bridge-processes.js';
import { connectorHarness, freePort, type ConnectorHarness, type SandboxConnection } from './helpers/connector.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness } from './helpers/harness.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';
import { StopWaiting, until } from './helpers/until.js';
import { CLI } from './helpers/cli-command.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const STEP = { timeout: 180_000 };

/** Every folder and regular file under `root` (itself included) whose mode is not 0700 / 0600; links are skipped. */
function notPrivate(root: string, except: string[] = []): string[] {
  const wrong: string[] = [];
  const visit = (file: string) => {
    const info = lstatSync(file);
    if (!info.isDirectory() && !info.isFile()) return;
    const mode = info.mode & 0o777;
    if (mode !== (info.isDirectory() ? 0o700 : 0o600) && !except.includes(file)) wrong.push(`${path.relative(root, file) || '.'} ${mode.toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(file)) visit(path.join(file, name));
  };
  visit(root);
  return wrong;
}

/** What an older version left: folders 0755, files 0666 (the probe's 1,368 files under DATA_DIR/pglite). */
function makeWorldReadable(root: string): number {
  let files = 0;
  const visit = (file: string) => {
    const info = lstatSync(file);
    if (info.isDirectory()) {
      chmodSync(file, 0o755);
      for (const name of readdirSync(file)) visit(path.join(file, name));
    } else if (info.isFile()) {
      chmodSync(file, 0o666);
      files++;
    }
  };
  visit(root);
  return files;
}

interface Served {
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `pimbridge serve` on `dataDir` as a child process (its own umask, the shell's 022), until it printed its banner. */
async function serve(dataDir: string, env: Record<string, string> = {}): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI, 'serve'], {
    cwd: ROOT,
    env: childEnv({
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      SYNC_POLL_SECONDS: '0',
      MEDIA_ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  await until(
    'the server to start',
    async () => {
      if (child.exitCode !== null) throw new StopWaiting(`the server exited:\n${output}`);
      return /Pimbridge is running/.test(output);
    },
    120_000,
    100,
  );
  return {
    base,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      live.delete(child);
    },
  };
}

describe('DATA_DIR is private to the server’s user', () => {
  let dataDir: string;
  let images: TestServer;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-private-'));
    const png = await makeImage('png', 8, 8);
    images = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  });
  after(async () => {
    await images.close();
    try {
      execFileSync('chattr', ['-R', '-i', dataDir], { stdio: 'ignore' });
    } catch {}
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a first start leaves every folder 0700 and every file 0600: database, secrets, lock, media and uploads', STEP, async () => {
    const server = await serve(dataDir);
    try {
      const adminToken = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).admin_token as string;
      const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
      const org = (await (await fetch(`${server.base}/admin/organizations`, { method: 'POST', headers: admin, body: '{"name":"Private"}' })).json()) as any;
      const key = (await (await fetch(`${server.base}/admin/organizations/${org.id}/api-keys`, { method: 'POST', headers: admin, body: '{}' })).json()) as any;
      const pim = { 'x-api-key': key.api_key as string, 'content-type': 'application/json' };
      const product = (await (
        await fetch(`${server.base}/api/products`, {
          method: 'POST',
          headers: pim,
          body: JSON.stringify({ name: 'Kept private', sku: 'PRIV-1', price: '1.00' }),
        })
      ).json()) as any;
      // A media file (DATA_DIR/media/ab/…) and a CSV upload (DATA_DIR/imports).
      const media = await fetch(`${server.base}/api/products/${product.data.id}/media`, {
        method: 'POST',
        headers: pim,
        body: JSON.stringify({ file_url: `${images.url}/photo.png` }),
      });
      assert.equal(media.status, 201, await media.text());
      const form = new FormData();
      form.append('file', new Blob(['sku,name,price\nPRIV-2,Imported,2.00\n'], { type: 'text/csv' }), 'products.csv');
      const upload = await fetch(`${server.base}/api/imports`, { method: 'POST', headers: { 'x-api-key': key.api_key }, body: form });
      assert.equal(upload.status, 202, await upload.text());

      assert.ok(readdirSync(path.join(dataDir, 'pglite')).length > 5, 'the database is in DATA_DIR/pglite');
      assert.ok(readdirSync(path.join(dataDir, 'media')).length > 0, 'a media file was stored');
      assert.deepEqual(notPrivate(dataDir), [], 'every folder 0700 and every file 0600 while it runs (the lock file too)');
    } finally {
      await server.stop();
    }
    assert.deepEqual(notPrivate(dataDir), [], 'and after it stopped');
  });

  it('existing data with 0666 is fixed on start', STEP, async () => {
    const files = makeWorldReadable(dataDir);
    assert.ok(files > 1000, `an older version's data: ${files} files 0666`);
    const server = await serve(dataDir);
    try {
      assert.deepEqual(notPrivate(dataDir), []);
      assert.doesNotMatch(server.output(), /could not be made private/);
    } finally {
      await server.stop();
    }
  });

  it('only what Pimbridge keeps in DATA_DIR is walked: an operator’s other files keep their modes; a sticky /tmp-like folder is not changed', () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'pimbridge-private-scope-'));
    try {
      chmodSync(scratch, 0o755);
      mkdirSync(path.join(scratch, 'media', 'ab'), { recursive: true, mode: 0o755 });
      writeFileSync(path.join(scratch, 'media', 'ab', 'a.jpg'), 'x', { mode: 0o644 });
      writeFileSync(path.join(scratch, 'secrets.json'), '{}', { mode: 0o644 });
      mkdirSync(path.join(scratch, 'tools'), { mode: 0o755 });
      writeFileSync(path.join(scratch, 'tools', 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
      chmodSync(path.join(scratch, 'tools', 'run.sh'), 0o755);
      const report = makeDataDirPrivate(scratch);
      assert.deepEqual([report.changed, report.failed], [5, 0]);
      assert.deepEqual(notPrivate(scratch, [path.join(scratch, 'tools'), path.join(scratch, 'tools', 'run.sh')]), []);
      assert.equal(lstatSync(path.join(scratch, 'tools', 'run.sh')).mode & 0o777, 0o755, 'not ours: left as it was');

      chmodSync(scratch, 0o1777);
      const shared = makeDataDirPrivate(scratch);
      assert.equal(lstatSync(scratch).mode & 0o7777, 0o1777, 'a shared folder is not made private');
      assert.deepEqual(shared.firstFailure, { path: scratch, code: 'a shared folder (sticky bit): give DATA_DIR a folder of its own' });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('a mode it cannot set is one warn line naming the first such file and how many, and the start goes on', STEP, async (t) => {
    // The rule, without a file system to refuse it: a user who does not own the files gets EPERM from chmod.
    const scratch = mkdtempSync(path.join(tmpdir(), 'pimbridge-private-unit-'));
    try {
      mkdirSync(path.join(scratch, 'media', 'ab'), { recursive: true, mode: 0o755 });
      writeFileSync(path.join(scratch, 'media', 'ab', 'theirs.jpg'), 'x', { mode: 0o644 });
      writeFileSync(path.join(scratch, 'mine.txt'), 'x', { mode: 0o644 });
      const theirs = path.join(scratch, 'media', 'ab', 'theirs.jpg');
      const report = makePrivate(scratch, {
        chmod: (file, mode) => {
          if (file === theirs) throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
          chmodSync(file, mode);
        },
      });
      assert.deepEqual([report.failed, report.firstFailure], [1, { path: theirs, code: 'EPERM' }]);
      assert.deepEqual(notPrivate(scratch, [theirs]), [], 'everything else was made private');
      const warning = privacyWarning(scratch, report);
      assert.ok(warning && !warning.includes('\n'), 'one line');
      assert.match(
        warning,
        new RegExp(`^DATA_DIR ${scratch}: 1 file or folder could not be made private to this user \\(first: ${theirs}, EPERM: not its owner\\)`),
      );
      assert.equal(privacyWarning(scratch, makePrivate(scratch)), null, 'nothing to say once all is private');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }

    // The server itself: a file even root cannot chmod (immutable), where the file system allows making one.
    const stuck = path.join(dataDir, 'media', 'stuck.jpg');
    writeFileSync(stuck, 'x', { mode: 0o644 });
    chmodSync(stuck, 0o644);
    try {
      execFileSync('chattr', ['+i', stuck], { stdio: 'ignore' });
    } catch {
      t.diagnostic('chattr +i is not available here: the server-level warning is not exercised');
      rmSync(stuck, { force: true });
      return;
    }
    try {
      const server = await serve(dataDir);
      try {
        assert.equal((await fetch(`${server.base}/readyz`)).status, 200, 'the server started anyway');
        const warnings = server
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { level: number; msg: string })
          .filter((l) => /could not be made private/.test(l.msg));
        assert.equal(warnings.length, 1, server.output());
        assert.equal(warnings[0].level, 40, 'at warn');
        assert.match(warnings[0].msg, new RegExp(`1 file or folder could not be made private to this user \\(first: ${stuck}, EPERM: not its owner\\)`));
        assert.deepEqual(notPrivate(dataDir, [stuck]), []);
      } finally {
        await server.stop();
      }
    } finally {
      execFileSync('chattr', ['-i', stuck], { stdio: 'ignore' });
      rmSync(stuck, { force: true });
    }
  });
});

describe('address-policy errors name the rule, not the resolved address', () => {
  it('a host name that resolves to a refused address: the rule and the range, without the address', async () => {
    await assert.rejects(new SafeDownloader().fetch('http://localhost:1/x'), (err: unknown) => {
      assert.ok(err instanceof AddressRefusedError, String(err));
      assert.equal(err.message, 'the host name resolves to a non-public address (loopback)');
      return true;
    });
    const intranet = new SafeDownloader({ resolve: async () => [{ address: '10.20.30.40', family: 4 }] });
    await assert.rejects(intranet.fetch('http://wiki.corp.example/logo.png'), (err: unknown) => {
      assert.ok(err instanceof DownloadError);
      assert.equal(err.message, 'the host name resolves to a non-public address (private network)');
      assert.doesNotMatch(err.message, /10\.20\.30\.40/);
      return true;
    });
  });

  it('an IP literal: the rule and the range (the address is the URL’s own)', async () => {
    await assert.rejects(new SafeDownloader().fetch('http://169.254.169.254/latest/meta-data/'), {
      message: 'the host is not a public address (link-local)',
    });
  });

  it('webhook destinations (the sandbox’s deliveries go through the same agents): the rule, not the address', async () => {
    const send = agentFetch(checkedAgents(publicAddressesOnly, filteredLookup(publicAddressesOnly, systemResolver)));
    await assert.rejects(send(new URL('http://localhost:1/webhooks'), { method: 'POST', body: '{}' }), {
      message: 'the host name resolves to a non-public address (loopback)',
    });
  });
});

/** A push of one product as the connector sends it (store-rules-e2e.test.ts), with these images. */
const snapshot = (id: number, images: string[]) => ({
  id,
  sku: `ADDR-${id}`,
  name: `Pictured ${id}`,
  status: 'draft',
  price: '5.00',
  currency: 'EUR',
  variants: [],
  images,
});

const MEDIA = `query ($id: ID!) { product(id: $id) { media(first: 5) { nodes { status mediaErrors { code details } } } } }`;

for (const target of databaseTargets()) {
  describe(`the sandbox fetches media from public addresses only (${target.name})`, () => {
    let h: ConnectorHarness;
    let c: SandboxConnection;
    let internal: TestServer;

    before(async () => {
      const png = await makeImage('png', 8, 8);
      internal = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      c = await h.sandboxConnected(`addresses-${process.pid}.myshopify.com`);
    });
    after(async () => {
      await h?.close();
      await internal?.close();
    });

    const push = async (id: number, images: string[]) => {
      const res = await h.call('POST', '/api/products/push', c.token, { products: [snapshot(id, images)] });
      assert.equal(res.statusCode, 200, res.body);
      return `gid://shopify/Product/${(await h.call('GET', `/api/products/mapping/${id}`, c.token)).json().data.storefront_product_id}`;
    };
    const processed = (gid: string, count: number) =>
      until(`the shop to process ${gid}'s media`, async () => {
        const nodes = (await c.gql(MEDIA, { id: gid })).product.media.nodes as { status: string; mediaErrors: { code: string; details: string }[] }[];
        return nodes.length === count && nodes.every((m) => m.status === 'READY' || m.status === 'FAILED') ? nodes : null;
      });

    it('a product pushed with images on loopback: the server never requests them; FAILED, naming the rule', async () => {
      const gid = await push(880_001, [`${internal.url}/internal-only`, `http://localhost:${internal.port}/by-name.png`]);
      const [literal, byName] = await processed(gid, 2);
      assert.deepEqual([literal.status, byName.status], ['FAILED', 'FAILED']);
      assert.deepEqual([literal.mediaErrors[0].code, byName.mediaErrors[0].code], ['IMAGE_DOWNLOAD_FAILURE', 'IMAGE_DOWNLOAD_FAILURE']);
      const lifted = ": a shop fetches images from public addresses only (this sandbox store's allow_private_media_sources lifts it)";
      assert.equal(literal.mediaErrors[0].details, `the host is not a public address (loopback)${lifted}`);
      assert.equal(byName.mediaErrors[0].details, `the host name resolves to a non-public address (loopback)${lifted}`);
      assert.equal(internal.connections, 0, 'not even a connection');
      assert.deepEqual(internal.hits, []);
    });

    it('a store that allows private media sources (PATCH /admin/sandbox/stores/{domain}, the tests’ setting) fetches them', async () => {
      const res = await h.admin('PATCH', `/admin/sandbox/stores/${c.domain}`, { allow_private_media_sources: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().allow_private_media_sources, true);
      const gid = await push(880_002, [`${internal.url}/allowed.png`]);
      const [media] = await processed(gid, 1);
      assert.equal(media.status, 'READY', JSON.stringify(media));
      assert.deepEqual(internal.hits, ['/allowed.png']);
    });
  });

  describe(`private PIM addresses are refused by default, as an unreachable PIM (${target.name})`, () => {
    let h: ConnectorHarness;
    let fakePim: TestServer;
    /** The rule, and nothing about what (if anything) listens at the address. */
    const RULE =
      /^pim_base_url (is|resolves to) a private address \((loopback|private network|link-local)\); set CONNECTOR_ALLOW_PRIVATE_NETWORKS=true to allow private networks$/;

    before(async () => {
      // A server that answers the credential check as a PIM would: reaching it would connect.
      fakePim = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":1,"data":{}}'));
      const port = await freePort();
      // CONNECTOR_ALLOW_PRIVATE_NETWORKS empty: its default (the connector harness opts in otherwise).
      h = await connectorHarness(target, { PUBLIC_URL: `http://127.0.0.1:${port}`, CONNECTOR_ALLOW_PRIVATE_NETWORKS: '' }, port);
    });
    after(async () => {
      await h?.close();
      await fakePim?.close();
    });

    it('is off by default, embedded mode included', () => {
      const config = loadConfig({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') });
      assert.equal(config.databaseUrl, null, 'embedded');
      assert.equal(config.connectorAllowPrivateNetworks, false);
    });

    it('connect: loopback, private and link-local PIMs are 503 CONNECTION_FAILED naming the rule; nothing is sent', async () => {
      const tenant = await h.tenant();
      const domain = await h.shop(undefined, tenant.organizationId);
      const urls = [
        fakePim.url, // answers like a PIM
        'http://127.0.0.1:1', // nothing listens: not "connection refused"
        `http://localhost:${fakePim.port}`, // by name: not the address it resolved to
        'http://10.0.0.1',
        'http://169.254.169.254', // cloud metadata
        'http://[::1]:1',
      ];
      for (const url of urls) {
        const res = await h.call('POST', '/api/connect', null, {
          shop_domain: domain,
          pim_base_url: url,
          pim_api_key: tenant.apiKey,
          pim_api_secret: tenant.apiSecret,
        });
        assert.equal(res.statusCode, 503, `${url}: ${res.body}`);
        assert.equal(res.json().code, 'CONNECTION_FAILED', url);
        assert.match(res.json().message, RULE, url);
        assert.doesNotMatch(res.json().message, /refused|answered|HTTP|127\.0\.0\.1|::1/, url);
      }
      assert.equal(fakePim.connections, 0, 'no connection was made to a refused address');
    });

    it("this server's own PUBLIC_URL stays allowed (the demo's PIM); an update to a private address is 503 VALIDATION_FAILED naming the rule", async () => {
      const tenant = await h.tenant();
      const domain = await h.shop(undefined, tenant.organizationId);
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      const update = await h.call('PUT', '/api/integration/update', res.json().data.api_token, { pim_base_url: `http://localhost:${fakePim.port}` });
      assert.equal(update.statusCode, 503, update.body);
      assert.equal(update.json().code, 'VALIDATION_FAILED');
      assert.equal(
        update.json().message,
        'pim_base_url resolves to a private address (loopback); set CONNECTOR_ALLOW_PRIVATE_NETWORKS=true to allow private networks',
      );
      assert.equal(fakePim.connections, 0);
    });
  });

  describe(`media by URL names the rule, not the resolved address (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(async () => {
      await h?.close();
    });

    it('file_url http://localhost/x: 400 with the rule and the range', async () => {
      const c = h.as(await h.tenant());
      const product = (await c('POST', '/api/products', { name: 'Refused picture', sku: 'ADDR-MEDIA', price: '1.00' })).json().data;
      const res = await c('POST', `/api/products/${product.id}/media`, { file_url: 'http://localhost/x.png' });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, 'file_url: the host name resolves to a non-public address (loopback)');
    });
  });
}
