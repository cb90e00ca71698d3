// A scenario run on its own (`npx tsx bench/<scenario>.ts [--smoke]`): a scratch PostgreSQL database, a Pimbridge
// server from src/ (through tsx) on it, the scenario, then everything removed (the server log kept if it failed, or
// with BENCH_KEEP_LOGS=1). BENCH_NODE_FLAGS adds node flags to the server (e.g. `--trace-gc`).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { start, stopAll, waitFor200, type Child } from './children.js';
import { adminSql as adminSqlOn } from './util.js';

export interface ScratchServer {
  url: string;
  adminHeaders: Record<string, string>;
  /** GET /metrics's (with DATABASE_URL it has a token of its own). */
  metricsHeaders: Record<string, string>;
  dbUrl: string;
  dbName: string;
  root: string;
  logDir: string;
  server: Child;
  /** The server's environment (a second server on the same database starts from it). */
  env: NodeJS.ProcessEnv;
  log: (msg: string) => void;
}

/** Runs `scenario` alone and prints the report it returns. */
export async function withScratchServer(name: string, scenario: (s: ScratchServer) => Promise<string>, extraEnv: Record<string, string> = {}): Promise<void> {
  process.stdout.write(await onScratchServer(name, scenario, extraEnv));
}

/** Runs `scenario` against a server on a scratch database of its own; its result. */
/** `extraEnv`: more of the server's environment (CONSOLE_DIR for the console's benchmark). */
export async function onScratchServer<T>(name: string, scenario: (s: ScratchServer) => Promise<T>, extraEnv: Record<string, string> = {}): Promise<T> {
  const root = path.resolve(import.meta.dirname, '..');
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `pimbridge_bench_${name.replace(/\W/g, '_')}`;
  const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
  const adminSql = (statement: string) => adminSqlOn(adminUrl, statement);
  const logDir = mkdtempSync(path.join(os.tmpdir(), `pimbridge-${name}-`));
  await adminSql(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await adminSql(`CREATE DATABASE ${dbName}`);
  let ok = false;
  try {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const adminToken = `bench-${randomBytes(16).toString('hex')}`;
    const metricsToken = `bench-metrics-${randomBytes(16).toString('hex')}`;
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PIM_RATE_LIMIT_READ: '10000000',
      PIM_RATE_LIMIT_WRITE: '9999999',
      DATABASE_URL: dbUrl,
      ADMIN_TOKEN: adminToken,
      METRICS_TOKEN: metricsToken,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PORT: String(port),
      ...extraEnv,
    };
    const server = start(
      `pimbridge-${name}`,
      [...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : []), '--import', 'tsx', 'src/cli/main.ts', 'serve'],
      env,
      path.join(logDir, 'server.log'),
      root,
    );
    const url = `http://127.0.0.1:${port}`;
    await waitFor200(server, `${url}/readyz`);
    const result = await scenario({
      url,
      adminHeaders: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      metricsHeaders: { authorization: `Bearer ${metricsToken}` },
      dbUrl,
      dbName,
      root,
      logDir,
      server,
      env,
      log: (msg) => process.stdout.write(`[${name}] ${msg}\n`),
    });
    ok = true;
    return result;
  } finally {
    await stopAll();
    await adminSql(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    if (ok && !process.env.BENCH_KEEP_LOGS) rmSync(logDir, { recursive: true, force: true });
    else process.stderr.write(`server log kept in ${logDir}\n`);
  }
}

/** Runs `main` when `moduleUrl` is the script node was started with; exit code 1 and the stack on failure. */
export function runIfMain(moduleUrl: string, name: string, main: () => Promise<void>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main().then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`${name} failed: ${err.stack ?? err.message}\n`);
      process.exit(1);
    },
  );
}
