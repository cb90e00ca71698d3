// How the tests run the `pimbridge` command as a child process: `node` with these arguments, then the command's own.
// The build (dist/cli/main.js, what `npm start` runs) when it is newer than every source file — `npm test` builds it
// before the suites — else the sources through tsx (a file run by hand right after an edit). A built process starts on
// about 1.7 s of CPU, one through tsx on about 4 s, and the suite starts over a hundred.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function buildIsFresh(): boolean {
  const stamp = path.join(ROOT, 'dist', '.build-stamp');
  if (!existsSync(stamp) || !existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) return false;
  const built = statSync(stamp).mtimeMs;
  const sources = readdirSync(path.join(ROOT, 'src'), { recursive: true }).map((f) => path.join(ROOT, 'src', String(f)));
  return [...sources, path.join(ROOT, 'package.json'), path.join(ROOT, 'tsconfig.json')].every((f) => statSync(f).mtimeMs <= built);
}

export const CLI: readonly string[] = buildIsFresh()
  ? [path.join(ROOT, 'dist', 'cli', 'main.js')]
  : ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts')];
