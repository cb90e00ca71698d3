// `npm test`: Node's test runner over test/**/*.test.ts through tsx (Node 20's --test takes no globs).
// Every suite runs on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const filter = process.argv.slice(2);
const files = readdirSync(path.join(root, 'test'), { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts') && (filter.length === 0 || filter.some((x) => f.includes(x))))
  .sort()
  .map((f) => path.join('test', f));

const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
