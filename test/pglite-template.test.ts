// The embedded database's build-time template: a new data directory starts from it, already migrated, and a damaged
// template falls back to a plain initialisation.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { writePgliteTemplateWithQueue } from '../src/jobs/queue-template.js';
import { rowsOf } from '../src/db/rows.js';

describe('PGlite template', () => {
  let dir: string;
  let template: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pimbridge-template-'));
    template = path.join(dir, 'template.tar.gz');
    await writePgliteTemplateWithQueue(template);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const tables = async (dataDir: string, templateFile: string) => {
    const database = await openDatabase({ kind: 'pglite', dataDir, templateFile });
    try {
      const before = await database.db.execute(sql`select to_regclass('public.products') is not null as migrated`);
      await database.migrate();
      await database.db.execute(sql`insert into organizations (name) values ('T')`);
      const trgm = await database.db.execute(sql`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`);
      return { migratedBeforeMigrate: rowsOf<{ migrated: boolean }>(before)[0].migrated, trgm: rowsOf<{ n: number }>(trgm)[0].n };
    } finally {
      await database.close();
    }
  };

  it('starts a new data directory from the template, already migrated and with pg_trgm', async () => {
    assert.deepEqual(await tables(path.join(dir, 'a'), template), { migratedBeforeMigrate: true, trgm: 1 });
    // Reopening keeps the data and does not load the template again.
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'a'), templateFile: template });
    const rows = await database.db.execute(sql`select count(*)::int as n from organizations`);
    await database.close();
    assert.equal(rowsOf<{ n: number }>(rows)[0].n, 1);
  });

  it("an in-memory database (the tests') starts from a template when given one, and initialises as usual without", async () => {
    const migrated = async (templateFile?: string) => {
      const database = await openDatabase({ kind: 'pglite', dataDir: null, templateFile });
      try {
        const rows = await database.db.execute(
          sql`select to_regclass('public.products') is not null as migrated, to_regclass('pgboss.job') is not null as queue`,
        );
        return rowsOf<{ migrated: boolean; queue: boolean }>(rows)[0];
      } finally {
        await database.close();
      }
    };
    assert.deepEqual(await migrated(template), { migrated: true, queue: true });
    assert.deepEqual(await migrated(), { migrated: false, queue: false });
    const damaged = path.join(dir, 'damaged-memory.tar.gz');
    writeFileSync(damaged, 'not a tarball');
    assert.deepEqual(await migrated(damaged), { migrated: false, queue: false });
  });

  it('initialises as usual when there is no template or it is damaged', async () => {
    assert.deepEqual(await tables(path.join(dir, 'b'), path.join(dir, 'missing.tar.gz')), { migratedBeforeMigrate: false, trgm: 1 });
    const damaged = path.join(dir, 'damaged.tar.gz');
    writeFileSync(damaged, 'not a tarball');
    assert.deepEqual(await tables(path.join(dir, 'c'), damaged), { migratedBeforeMigrate: false, trgm: 1 });
  });
});
