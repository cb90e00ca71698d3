// `pimbridge import` and `pimbridge export` as a user runs them: the CLI as a child process (helpers/cli-command.ts, as the end to
// end test runs it) against a real server listening on a port, with its job workers running so imports complete, on
// both databases. With --org the CLI issues a temporary API key with the admin token and revokes it at the end (after
// success, failure and Ctrl-C alike); exit codes 0 (all rows and images in), 1 (rows, images or the import failed),
// 2 (usage).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { csv } from './helpers/catalogue-files.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness, type Tenant } from './helpers/harness.js';
import { okData } from './helpers/pim.js';
import { StopWaiting, until } from './helpers/until.js';
import { CLI } from './helpers/cli-command.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const STEP = { timeout: 120_000 };
const NO_STACK = /\n\s+at /;

/** Variables the CLI reads: children get only what a test gives them. */
const CLI_VARIABLES = ['PIMBRIDGE_URL', 'PIMBRIDGE_API_KEY', 'ADMIN_TOKEN', 'DATA_DIR', 'PORT', 'HOST', 'NODE_TEST_CONTEXT'];

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function start(args: string[], env: Record<string, string>): Run {
  const base = { ...process.env };
  for (const name of CLI_VARIABLES) delete base[name];
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits (the one `until`) for `check` to hold of the command's output; fails at once if the command exits first. */
const seen = (what: string, check: () => boolean, run: Run, ms = 60_000) =>
  until(
    what,
    () => {
      if (check()) return true;
      const output = `stdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`;
      if (run.child.exitCode !== null) throw new StopWaiting(`${what}: not seen, the command exited\n${output}`);
      throw new Error(`not seen yet\n${output}`);
    },
    ms,
  );

for (const target of databaseTargets()) {
  describe(`pimbridge import and export (${target.name})`, () => {
    let h: Harness;
    let dataDir: string;
    let work: string;
    let baseUrl: string;
    let tenant: Tenant;

    /** Runs the CLI to its end against the server (admin token in the environment, as the admin commands take it). */
    async function cli(args: string[], env: Record<string, string> = {}) {
      const run = start(args, { PIMBRIDGE_URL: baseUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env });
      const code = await run.exited;
      return { code, stdout: run.stdout(), stderr: run.stderr() };
    }

    /** The organization's API keys issued by the CLI: name and whether each is revoked. */
    async function temporaryKeys(organizationId: number): Promise<{ name: string; revoked: boolean }[]> {
      const { rows } = await h.database.executor.executeSql(
        "SELECT name, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE organization_id = $1 AND name LIKE 'pimbridge %' ORDER BY id",
        [organizationId],
      );
      return rows.map((r) => ({ name: String(r.name), revoked: r.revoked === true || r.revoked === 't' }));
    }

    async function skus(t: Tenant): Promise<string[]> {
      const data = okData(await h.as(t)('GET', '/api/products?limit=100'));
      return data.products.map((p: { sku: string }) => p.sku).sort();
    }

    const file = (name: string, content: string) => {
      const p = path.join(work, name);
      writeFileSync(p, content);
      return p;
    };

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-cli-files-'));
      work = mkdtempSync(path.join(tmpdir(), 'pimbridge-cli-csv-'));
      // SYNC_POLL_SECONDS=0: no delta poller, only the imports' jobs run.
      h = await harness(target, { DATA_DIR: dataDir, SYNC_POLL_SECONDS: '0' });
      // As `pimbridge serve` (role all) does: this node runs the jobs, so imports complete.
      await h.app.services.jobs.workers.start();
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      tenant = await h.tenant('CLI catalogue');
    });
    after(async () => {
      await h?.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    });

    it('import --org: uploads, follows the job, prints the summary, exits 0, and revokes its temporary key', STEP, async () => {
      const input = file(
        'good.csv',
        csv([
          ['sku', 'name', 'price'],
          ['CLI-A', 'Alpha', '10.00'],
          ['CLI-B', 'Beta', '12.50'],
          ['CLI-C', 'Gamma', '3'],
        ]),
      );
      const run = await cli(['import', input, '--org', String(tenant.organizationId)]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Import [0-9a-f-]{36} completed: 3\/3 rows \(created 3, updated 0, unchanged 0, failed 0\)\n$/);
      // Not a terminal: plain lines on stderr, no bar, no stack.
      assert.match(run.stderr, /Import [0-9a-f-]{36} accepted: 3 rows, format ours\./);
      assert.ok(!run.stderr.includes('\u001b['), 'no terminal escapes');
      assert.doesNotMatch(run.stderr, NO_STACK);
      assert.deepEqual(await skus(tenant), ['CLI-A', 'CLI-B', 'CLI-C']);
      const beta = okData(await h.as(tenant)('GET', '/api/products?search=CLI-B')).products[0];
      assert.equal(beta.name, 'Beta');
      assert.equal(beta.price, '12.5000');
      assert.deepEqual(await temporaryKeys(tenant.organizationId), [{ name: 'pimbridge import (temporary)', revoked: true }]);
      assert.equal(existsSync(`${input}.errors.csv`), false);

      // The same file again with the organization's own key (PIMBRIDGE_API_KEY): nothing changes, no key is issued.
      const again = await cli(['import', input, '--format', 'ours'], { PIMBRIDGE_API_KEY: tenant.apiKey });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /completed: 3\/3 rows \(created 0, updated 0, unchanged 3, failed 0\)/);
      assert.equal((await temporaryKeys(tenant.organizationId)).length, 1);

      // A dry run says what would change and writes nothing.
      const dry = await cli([
        'import',
        file(
          'dry.csv',
          csv([
            ['sku', 'name', 'price'],
            ['CLI-DRY', 'Dry', '1'],
          ]),
        ),
        '--api-key',
        tenant.apiKey,
        '--dry-run',
      ]);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /completed \(dry run: nothing was written\): 1\/1 rows \(created 1,/);
      assert.ok(!(await skus(tenant)).includes('CLI-DRY'));
    });

    it('import with a bad row: the good rows are in, FILE.errors.csv holds the line, exit 1', STEP, async () => {
      const t = await h.tenant('CLI bad rows');
      const input = file(
        'bad.csv',
        csv([
          ['sku', 'name', 'price'],
          ['BAD-A', 'Fine', '4.00'],
          ['BAD-B', 'Comma', '12,50'],
          ['BAD-C', 'Also fine', '5'],
        ]),
      );
      const run = await cli(['import', input, '--org', String(t.organizationId)]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stdout, /^Import [0-9a-f-]{36} completed: 3\/3 rows \(created 2, updated 0, unchanged 0, failed 1\)\n/);
      const report = `${input}.errors.csv`;
      assert.ok(run.stdout.includes(`1 row failed: the reasons (line, sku, reason) are in ${report}`), run.stdout);
      assert.match(run.stdout, /also at GET http:\/\/127\.0\.0\.1:\d+\/api\/imports\/[0-9a-f-]{36}\/errors\.csv/);
      const lines = readFileSync(report, 'utf8').trim().split('\n');
      assert.equal(lines[0], 'line,sku,reason');
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(lines[1], /^3,BAD-B,.*12,50/);
      assert.deepEqual(await skus(t), ['BAD-A', 'BAD-C']);
      assert.deepEqual(await temporaryKeys(t.organizationId), [{ name: 'pimbridge import (temporary)', revoked: true }]);
    });

    it('import with an image that cannot be downloaded: the summary counts it, FILE.errors.csv holds it, exit 1', STEP, async () => {
      const t = await h.tenant('CLI images');
      // A private address: the media download policy refuses it at once (this server allows no private networks).
      const url = 'http://127.0.0.1:9/nowhere.png';
      const input = file(
        'images.csv',
        csv([
          ['sku', 'name', 'images'],
          ['IMG-A', 'With an image', url],
          ['IMG-B', 'Without', ''],
        ]),
      );
      const run = await cli(['import', input, '--org', String(t.organizationId)]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stdout, /^Import [0-9a-f-]{36} completed: 2\/2 rows \(created 2, updated 0, unchanged 0, failed 0, images failed 1\)\n/);
      const report = `${input}.errors.csv`;
      assert.ok(
        run.stdout.includes(
          `1 image could not be downloaded (its product is imported; the URL is kept and tried again at the next import): the reasons (line, sku, reason) are in ${report}`,
        ),
        run.stdout,
      );
      const lines = readFileSync(report, 'utf8').trim().split('\n');
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.ok(lines[1].replace('"', '').startsWith(`2,IMG-A,image ${url}: `), lines[1]);
      assert.deepEqual(await skus(t), ['IMG-A', 'IMG-B']);
    });

    it('export --org to stdout: only the CSV on stdout, the message on stderr; --output writes the same file', STEP, async () => {
      const run = await cli(['export', '--org', String(tenant.organizationId)]);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split('\n');
      assert.match(lines[0], /^sku,/);
      const exported = lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort();
      assert.deepEqual(exported, ['CLI-A', 'CLI-B', 'CLI-C']);
      assert.match(run.stderr, /^Exported 3 rows \(\d+(\.\d)? k?B\) to stdout\.\n$/);
      const keys = await temporaryKeys(tenant.organizationId);
      assert.deepEqual(keys.at(-1), { name: 'pimbridge export (temporary)', revoked: true });
      assert.ok(keys.every((k) => k.revoked));

      const output = path.join(work, 'export.csv');
      const toFile = await cli(['export', '--api-key', tenant.apiKey, '--output', output, '--search', 'CLI-B']);
      assert.equal(toFile.code, 0, toFile.stderr);
      assert.equal(toFile.stdout, '');
      assert.match(toFile.stderr, new RegExp(`Exported 1 row \\(\\d+ B\\) to ${output.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`));
      const written = readFileSync(output, 'utf8').trim().split('\n');
      assert.equal(written[0], lines[0]);
      assert.deepEqual(
        written.slice(1).map((l) => l.split(',')[0]),
        ['CLI-B'],
      );

      const shopify = await cli(['export', '--api-key', tenant.apiKey, '--format', 'shopify']);
      assert.equal(shopify.code, 0, shopify.stderr);
      assert.match(shopify.stdout, /^Handle,Title,/);
    });

    it('usage errors exit 2 before anything is sent: no FILE, both or neither of --org and --api-key, a bad --format', STEP, async () => {
      const input = path.join(work, 'good.csv');
      const before = (await temporaryKeys(tenant.organizationId)).length;
      const cases: [string[], RegExp][] = [
        [['import'], /missing required argument 'file'/],
        [['import', input, '--org', String(tenant.organizationId), '--api-key', tenant.apiKey], /either --org ID or --api-key KEY, not both/],
        [['export', '--org', String(tenant.organizationId), '--api-key', tenant.apiKey], /not both/],
        [['import', input], /--api-key KEY \(or PIMBRIDGE_API_KEY\), or --org ID/],
        [['import', input, '--api-key', tenant.apiKey, '--format', 'excel'], /Allowed choices are ours, shopify/],
        [['import', input, '--org', 'abc'], /positive integer/],
      ];
      for (const [args, message] of cases) {
        const run = await cli(args);
        assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, message);
        assert.doesNotMatch(run.stderr, NO_STACK);
        assert.equal(run.stdout, '');
      }
      assert.equal((await temporaryKeys(tenant.organizationId)).length, before, 'no key was issued');
    });

    it('errors are one line on stderr, exit 1: a refused key (401), a refused file (400), no server; the temporary key is revoked', STEP, async () => {
      const input = path.join(work, 'good.csv');
      const refused = await cli(['import', input, '--api-key', 'pk_not_a_key']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^401: .*$/m);
      assert.doesNotMatch(refused.stderr, NO_STACK);

      const t = await h.tenant('CLI refused file');
      const badFile = await cli(['import', file('not-a-catalogue.csv', 'colour,size\nred,M\n'), '--org', String(t.organizationId)]);
      assert.equal(badFile.code, 1);
      assert.match(badFile.stderr, /^400: .+$/m);
      assert.doesNotMatch(badFile.stderr, NO_STACK);
      assert.deepEqual(await temporaryKeys(t.organizationId), [{ name: 'pimbridge import (temporary)', revoked: true }]);

      const missing = await cli(['import', path.join(work, 'nope.csv'), '--api-key', tenant.apiKey]);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /Cannot read .*nope\.csv: no such file/);

      const down = await cli(['--url', `http://127.0.0.1:${await freePort()}`, 'export', '--api-key', tenant.apiKey]);
      assert.equal(down.code, 1);
      assert.match(down.stderr, /^Cannot reach Pimbridge at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); is the server running\?\n$/);
      assert.equal(down.stdout, '');
    });

    it('Ctrl-C while following an import: the temporary key is revoked, the import goes on, exit 130', STEP, async () => {
      const t = await h.tenant('CLI interrupted');
      const rows: (string | number)[][] = [['sku', 'name', 'price']];
      for (let i = 0; i < 20; i++) rows.push([`INT-${i}`, `Interrupted ${i}`, '1.00']);
      // No worker runs the job meanwhile: the import is still going when the signal comes.
      await h.app.services.jobs.workers.stop(5_000);
      try {
        const run = start(['import', file('interrupted.csv', csv(rows)), '--org', String(t.organizationId)], {
          PIMBRIDGE_URL: baseUrl,
          ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        });
        await seen('the import accepted', () => /accepted: 20 rows/.test(run.stderr()), run);
        run.child.kill('SIGINT');
        assert.equal(await run.exited, 130, run.stderr());
        assert.match(run.stderr(), /Interrupted; revoking the temporary API key…/);
        assert.match(run.stderr(), /The import [0-9a-f-]{36} continues on the server/);
        assert.match(run.stderr(), /The temporary API key \d+ is revoked\./);
      } finally {
        await h.app.services.jobs.workers.start();
      }
      assert.deepEqual(await temporaryKeys(t.organizationId), [{ name: 'pimbridge import (temporary)', revoked: true }]);
    });
  });
}
