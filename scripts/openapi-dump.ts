// The server's OpenAPI document as /docs/openapi.json serves it, built without listening (embedded database, no data
// directory). `npx tsx scripts/openapi-dump.ts <out.json>` writes it; scripts/client.ts builds it with openApiDocument().
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/db/client.js';
import { loadConfig } from '../src/config.js';
import { startApp } from '../src/server/start-app.js';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await database.migrate();
  const app = await startApp({
    config: loadConfig({
      ADMIN_TOKEN: 'openapi-generation-only',
      ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
      LOG_LEVEL: 'silent',
      DATA_DIR: '/nonexistent',
    }),
    database,
    logger: false,
  });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await database.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  writeFileSync(process.argv[2], JSON.stringify(await openApiDocument(), null, 2));
}
