// `npm run fuzz`: test/fuzz.test.ts with many more cases than `npm test` runs (FUZZ_RUNS, default 50,000; FUZZ_SEED
// repeats a run whose seed a failure printed). Not part of CI: at about 100 requests a second it takes minutes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '50000' };
const result = spawnSync(process.execPath, [path.join(import.meta.dirname, 'test.mjs'), 'fuzz'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
