// The sandbox's own migrations (sandbox/migrations): applied only where the sandbox runs, and a database
// migrated by an earlier release, whose production migrations made the sandbox's tables, ends up the same as a new one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import { sandboxMigrations } from '../src/sandbox/sandbox.module.js';
import { databaseTargets, harness } from './helpers/harness.js';

const SANDBOX_TABLES = [
  'sandbox_bulk_operations',
  'sandbox_collection_metafields',
  'sandbox_collection_products',
  'sandbox_collection_publications',
  'sandbox_collections',
  'sandbox_idempotency_keys',
  'sandbox_locations',
  'sandbox_media',
  'sandbox_metafield_definitions',
  'sandbox_oauth_grants',
  'sandbox_oauth_tokens',
  'sandbox_product_metafields',
  'sandbox_product_publications',
  'sandbox_products',
  'sandbox_publications',
  'sandbox_shop_locales',
  'sandbox_staged_uploads',
  'sandbox_stores',
  'sandbox_translations',
  'sandbox_variants',
  'sandbox_webhook_deliveries',
  'sandbox_webhook_subscriptions',
];

/** The legacy DDL's sections (`-- migration NNNN`), each a list of statements. */
const legacy = (() => {
  const text = readFileSync(path.join(import.meta.dirname, 'fixtures', 'legacy-sandbox-ddl.sql'), 'utf8');
  const sections = new Map<string, string[]>();
  const parts = text.split(/^-- migration (\d{4})$/m);
  for (let i = 1; i < parts.length; i += 2) {
    sections.set(
      parts[i],
      parts[i + 1]
        .split('--> statement-breakpoint')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }
  return sections;
})();

async function applyLegacy(database: Database, upTo: string): Promise<void> {
  for (const [tag, statements] of legacy) {
    if (tag > upTo) break;
    for (const statement of statements) await database.db.execute(sql.raw(statement));
  }
}

async function sandboxTables(database: Database): Promise<string[]> {
  const rows = rowsOf<{ table_name: string }>(
    await database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_name like 'sandbox\_%' order by table_name`,
    ),
  );
  return rows.map((r) => r.table_name);
}

/** Every column (type, default, nullability), index and constraint of the sandbox's tables; column order aside. */
async function schemaOf(database: Database): Promise<string[]> {
  const columns = rowsOf<{ line: string }>(
    await database.db.execute(sql`
      select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '-') as line
      from information_schema.columns where table_schema = 'public' and table_name like 'sandbox\_%'`),
  );
  const indexes = rowsOf<{ line: string }>(
    await database.db.execute(sql`select indexdef as line from pg_indexes where schemaname = 'public' and tablename like 'sandbox\_%'`),
  );
  const constraints = rowsOf<{ line: string }>(
    await database.db.execute(sql`
      select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as line
      from pg_constraint where conrelid::regclass::text like 'sandbox\_%'`),
  );
  // A serial's default names its sequence, the same in both; the rest is compared as is.
  return [...columns, ...indexes, ...constraints].map((r) => r.line).sort();
}

for (const target of databaseTargets()) {
  describe(`sandbox migrations (${target.name})`, () => {
    it('a database migrated with the sandbox off has none of its tables; with it on, all of them', async () => {
      const off = await harness(target, { SHOPIFY_SANDBOX: 'false' });
      try {
        assert.deepEqual(await sandboxTables(off.database), []);
      } finally {
        await off.close();
      }
      const on = await harness(target, { SHOPIFY_SANDBOX: 'true' });
      try {
        assert.deepEqual(await sandboxTables(on.database), SANDBOX_TABLES);
      } finally {
        await on.close();
      }
    });

    it('a database with the tables of earlier releases migrates cleanly and ends up as a new one', async () => {
      const fresh = await target.open();
      let expected: string[];
      try {
        await fresh.migrate();
        await fresh.migrate(sandboxMigrations);
        expected = await schemaOf(fresh);
        assert.ok(expected.length > 100);
      } finally {
        await fresh.close();
      }
      // Earlier releases: the last one (all of 0002-0009), and one that stopped before the media lifecycle (0005).
      for (const upTo of ['0009', '0005']) {
        const old = await target.open();
        try {
          await old.migrate();
          await applyLegacy(old, upTo);
          await old.db.execute(sql`insert into sandbox_stores (domain, name, access_token_hash) values ('old.myshopify.com', 'Old', 'x')`);
          await old.db.execute(
            sql`insert into sandbox_products (store_id, handle, title) select id, 'kept', 'Kept' from sandbox_stores where domain = 'old.myshopify.com'`,
          );
          await old.db.execute(
            sql`insert into sandbox_media (product_id, original_source, position, status) select id, 'https://example.com/a.png', 0, 'READY' from sandbox_products`,
          );
          await old.migrate(sandboxMigrations);
          await old.migrate(sandboxMigrations); // idempotent
          assert.deepEqual(await schemaOf(old), expected, `earlier release up to ${upTo}`);
          const kept = rowsOf<{ title: string; status: string }>(
            await old.db.execute(sql`select p.title, m.status from sandbox_products p join sandbox_media m on m.product_id = p.id`),
          );
          // Up to 0005 an image READY without a file is fetched again, as production's 0006 did; later it stays.
          assert.deepEqual(kept, [{ title: 'Kept', status: upTo === '0005' ? 'UPLOADED' : 'READY' }]);
        } finally {
          await old.close();
        }
      }
    });
  });
}
