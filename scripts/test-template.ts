// The test databases' PGlite template (test/helpers/harness.ts), written by `npm test` before the suites: the
// migrations and the job queue's schema, without the Shopify sandbox's tables (a suite's app adds those when it turns
// the sandbox on, as a real start does). An in-memory test database starts from it in ~1.4 s instead of ~4 s.
import { writePgliteTemplateWithQueue } from '../src/jobs/queue-template.js';
import { testPgliteTemplateFile } from '../test/helpers/test-template.js';

await writePgliteTemplateWithQueue(testPgliteTemplateFile);
