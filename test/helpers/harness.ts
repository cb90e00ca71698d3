// Test harness: every suite runs on embedded PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL too —
// each harness in a database of its own, migrated from scratch, dropped afterwards.
import { randomBytes } from 'node:crypto';
import type { Response as InjectResponse } from 'light-my-request';
import pg from 'pg';
import { loadConfig, testDatabaseUrl, type Config } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { startApp } from '../../src/server/start-app.js';
import type { ServiceOverrides } from '../../src/server/services.js';
import { assertMatchesDocument, checkAgainstOpenApi, type OpenApiCheck } from './openapi-check.js';
import { freshTestTemplate } from './test-template.js';

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

let counter = 0;

async function openFreshPostgres(baseUrl: string): Promise<Database> {
  const name = `pimbridge_test_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** The test template (helpers/test-template.ts) when `npm test` wrote it and it is fresh: databases start migrated. */
const pgliteTemplate = freshTestTemplate();

export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: 'pglite', open: () => openDatabase({ kind: 'pglite', dataDir: null, templateFile: pgliteTemplate }) }];
  const url = testDatabaseUrl();
  if (url) targets.push({ name: 'postgres', open: () => openFreshPostgres(url) });
  return targets;
}

/**
 * Redis for the cases that share counters through it: TEST_REDIS_URL, as TEST_DATABASE_URL is for PostgreSQL. Unset,
 * those cases are not defined (a machine with Node alone runs everything else); .ci/run sets it.
 */
export function testRedisUrl(): string | null {
  return process.env.TEST_REDIS_URL?.trim() || null;
}

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export function testConfig(env: Record<string, string> = {}): Readonly<Config> {
  return loadConfig({
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PIM_RATE_LIMIT_READ: '1000000',
    PIM_RATE_LIMIT_WRITE: '100000',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent-test-data-dir',
    ...env,
  });
}

export interface Tenant {
  organizationId: number;
  apiKey: string;
  apiSecret: string;
  keyId: number;
}

export type TestApp = Awaited<ReturnType<typeof startApp>>;

export interface Harness {
  app: TestApp;
  database: Database;
  /** A new organization with one API key, made through the admin API. */
  tenant(name?: string): Promise<Tenant>;
  /** inject() as a tenant: X-API-KEY set, JSON body. */
  as(tenant: Tenant | null): (method: string, url: string, payload?: unknown, headers?: Record<string, string>) => Promise<InjectResponse>;
  admin(method: string, url: string, payload?: unknown): Promise<InjectResponse>;
  close(): Promise<void>;
}

/** `services`: collaborators the app is built with in place of its defaults (a storefront double, short polls). */
export async function harness(target: DatabaseTarget, env: Record<string, string> = {}, services: ServiceOverrides = {}): Promise<Harness> {
  const database = await target.open();
  await database.migrate();
  let answers: OpenApiCheck | undefined;
  const app = await startApp({ config: testConfig(env), database, logger: false, services, instrument: (app) => (answers = checkAgainstOpenApi(app)) });
  await app.ready();
  const admin: Harness['admin'] = (method, url, payload) =>
    app.inject({
      method: method as never,
      url,
      payload: payload as never,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    }) as Promise<InjectResponse>;
  let tenants = 0;
  return {
    app,
    database,
    admin,
    async tenant(name = `Org ${++tenants}`) {
      const org = (await admin('POST', '/admin/organizations', { name })).json();
      const key = (await admin('POST', `/admin/organizations/${org.id}/api-keys`, {})).json();
      return { organizationId: org.id, apiKey: key.api_key, apiSecret: key.api_secret, keyId: key.id };
    },
    as:
      (tenant) =>
      (method, url, payload, headers = {}) =>
        app.inject({
          method: method as never,
          url,
          payload: payload as never,
          headers: { ...(tenant ? { 'x-api-key': tenant.apiKey } : {}), ...headers },
        }) as Promise<InjectResponse>,
    async close() {
      await app.close();
      await database.close();
      assertMatchesDocument(answers);
    },
  };
}
