// `pimbridge sandbox`: the Shopify sandbox as a process of its own (only the sandbox routes and /healthz), on the same
// database as `serve`, so tests and demos can stop the bridge without stopping the store. With the embedded database the
// data directory's lock lets only one process open it: run it with DATABASE_URL, or use the sandbox that `serve`
// already mounts at /sandbox/shopify. It mounts the sandbox module (sandbox/sandbox.module.ts) as buildApp
// does, so it lives in the application layer beside it, and applies only the sandbox's own migrations: the production
// tables are `serve`'s.
import Fastify, { type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { SandboxConfig } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { privacyWarning } from '../lib/private-files.js';
import { DataDirLockedError } from '../db/lock.js';
import { loggerOptions } from '../lib/logging.js';
import { closeOnSignals } from './shutdown.js';
import { createSandbox, NOT_FOUND_BODY, SANDBOX_PREFIX, sandboxMigrations, type SandboxGraphqlOptions } from '../sandbox/sandbox.module.js';

export interface SandboxAppDeps {
  database: Database;
  logger?: FastifyServerOptions['logger'];
  logLevel?: SandboxConfig['logLevel'];
  logFormat?: SandboxConfig['logFormat'];
  graphql?: SandboxGraphqlOptions;
}

/** A Fastify app with only the sandbox (never listens itself); applies the sandbox's migrations first (idempotent). */
export async function buildSandboxApp(deps: SandboxAppDeps) {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions({ logLevel: deps.logLevel ?? 'info', logFormat: deps.logFormat ?? 'json' }),
    bodyLimit: 1024 * 1024,
    genReqId: () => randomUUID(),
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, undefined) : parseJson(req, body as string, done),
  );
  const { database } = deps;
  await database.migrate(sandboxMigrations);
  const sandbox = createSandbox({ db: database.db, locks: database.locks, poolSize: database.poolUse?.().max }, deps.graphql);
  const { stores, graphql } = sandbox;
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(async (scope) => sandbox.routes(scope), { prefix: sandbox.prefix });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send(NOT_FOUND_BODY));
  app.setErrorHandler((err, req, reply) => {
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ errors: 'Internal Server Error' });
  });
  return Object.assign(app, { sandbox: { stores, graphql } });
}

export async function startSandboxServer(config: Readonly<SandboxConfig>): Promise<{ url: string; close: () => Promise<void> }> {
  let database: Database;
  try {
    database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      throw new DataDirLockedError(
        `${err.message} The standalone sandbox cannot share the embedded database with a running \`pimbridge serve\` ` +
          `(which already serves the sandbox at ${SANDBOX_PREFIX} when SHOPIFY_SANDBOX is on): set DATABASE_URL to run both.`,
      );
    }
    throw err;
  }
  let app: Awaited<ReturnType<typeof buildSandboxApp>> | null = null;
  try {
    app = await buildSandboxApp({ database, logLevel: config.logLevel, logFormat: config.logFormat });
    const privacy = database.privacy ? privacyWarning(config.dataDir, database.privacy) : null; // lib/private-files.ts
    if (privacy) app.log.warn(privacy);
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app?.close().catch(() => {});
    await database.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  process.stdout.write(
    `Pimbridge Shopify sandbox is running at ${url}${SANDBOX_PREFIX}/{domain}/admin/api/2026-10/graphql.json ` +
      `(${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})\n`,
  );
  let closing: Promise<void> | null = null;
  const running = app;
  const close = () =>
    (closing ??= (async () => {
      await running.close();
      await database.close();
    })());
  closeOnSignals(close);
  return { url, close };
}
