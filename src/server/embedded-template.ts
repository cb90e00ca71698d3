// The embedded database's build-time template (scripts/ensure-build.mjs): the production migrations, the Shopify
// sandbox's own (embedded mode runs the sandbox unless SHOPIFY_SANDBOX=false), and the job queue's schema. The layers
// below take the module's migrations as a set and the queue's schema as a step; the app puts them together.
import { pgliteTemplateFile } from '../db/pglite-template.js';
import { writePgliteTemplateWithQueue } from '../jobs/queue-template.js';
import { sandboxMigrations } from '../sandbox/sandbox.module.js';

export function writeEmbeddedTemplate(file: string = pgliteTemplateFile): Promise<void> {
  return writePgliteTemplateWithQueue(file, [sandboxMigrations]);
}
