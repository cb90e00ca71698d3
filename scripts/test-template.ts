// The test databases' PGlite template (test/helpers/harness.ts), written by `npm test` before the suites when it is
// missing or a migration is newer: the migrations and the job queue's schema, without the Shopify sandbox's tables (a
// suite's app adds those when it turns the sandbox on, as a real start does). An in-memory test database starts from
// it in ~1.4 s instead of ~4 s.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writePgliteTemplateWithQueue } from '../src/jobs/queue-template.js';
import { freshTestTemplate, testPgliteTemplateFile } from '../test/helpers/test-template.js';

if (!freshTestTemplate()) {
  mkdirSync(path.dirname(testPgliteTemplateFile), { recursive: true });
  await writePgliteTemplateWithQueue(testPgliteTemplateFile);
}
