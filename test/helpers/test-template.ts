// Where the test databases' PGlite template is (scripts/test-template.ts writes it), and whether it is fresh.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder, projectRoot } from '../../src/paths.js';

export const testPgliteTemplateFile = path.join(projectRoot, 'dist', 'test-pglite-template.tar.gz');

/** The template when it is newer than every migration (a test run by hand right after a migration was written skips it). */
export function freshTestTemplate(): string | undefined {
  if (!existsSync(testPgliteTemplateFile)) return undefined;
  const built = statSync(testPgliteTemplateFile).mtimeMs;
  const migrations = readdirSync(migrationsFolder, { recursive: true }).map((f) => path.join(migrationsFolder, String(f)));
  return migrations.every((f) => statSync(f).mtimeMs <= built) ? testPgliteTemplateFile : undefined;
}
