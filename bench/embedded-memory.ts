// Resident memory of the embedded server after the demo push (target ≤ 400 MB), as a new user meets it:
// `pimbridge serve` from dist/ on a new DATA_DIR (template, migrations, demo seed, demo shop connected and pushed),
// VmRSS read once the welcome is printed and the server has idled IDLE_MS. Several first starts, since the figure
// moves with when V8 last collected; the median is the result. `npx tsx bench/embedded-memory.ts [--runs N]`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb, start, stop, stopAll, waitFor200 } from './children.js';
import { runIfMain } from './scratch.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const IDLE_MS = 5_000;
export const MEMORY_TARGET_MB = 400;

export interface EmbeddedMemoryResult {
  runs: { readyMs: number; welcomeMs: number; rssMb: number }[];
  medianRssMb: number;
  idleMs: number;
}

export async function benchEmbeddedMemory(runs = 5, log: (msg: string) => void = () => {}): Promise<EmbeddedMemoryResult> {
  const { ensureBuild } = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'ensure-build.mjs')).href)) as { ensureBuild: (root: string) => void };
  ensureBuild(ROOT);
  const results: EmbeddedMemoryResult['runs'] = [];
  for (let i = 0; i < runs; i++) {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'pimbridge-memory-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const logFile = path.join(tmp, 'server.log');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: path.join(tmp, 'data'), PORT: String(port) };
    const server = start(`embedded-${i}`, ['dist/cli/main.js', 'serve'], env, logFile, ROOT);
    try {
      const readyMs = await waitFor200(server, `http://127.0.0.1:${port}/readyz`);
      // The welcome (with the demo API key) is printed once the demo shop is connected and its products pushed.
      for (const deadline = Date.now() + 60_000; !/API key:/.test(readFileSync(logFile, 'utf8')); ) {
        if (Date.now() > deadline) throw new Error(`no welcome after 60 s; see ${logFile}`);
        await sleep(100);
      }
      const welcomeMs = performance.now() - server.spawnedAt;
      await sleep(IDLE_MS);
      results.push({ readyMs, welcomeMs, rssMb: rssMb(server.pid) });
      log(`run ${i + 1}: ready ${readyMs.toFixed(0)} ms, welcome ${welcomeMs.toFixed(0)} ms, ${results.at(-1)!.rssMb.toFixed(0)} MB`);
    } finally {
      await stop(server);
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const sorted = results.map((r) => r.rssMb).sort((a, b) => a - b);
  return { runs: results, medianRssMb: sorted[Math.floor(sorted.length / 2)], idleMs: IDLE_MS };
}

runIfMain(import.meta.url, 'embedded-memory', async () => {
  const at = process.argv.indexOf('--runs');
  const r = await benchEmbeddedMemory(at > 0 ? Number(process.argv[at + 1]) : 5, (m) => process.stdout.write(`[memory] ${m}\n`));
  await stopAll();
  const pass = r.medianRssMb <= MEMORY_TARGET_MB;
  process.stdout.write(
    `\n| embedded server after the demo push: VmRSS, median of ${r.runs.length} first starts | ≤ ${MEMORY_TARGET_MB} MB | ${r.medianRssMb.toFixed(0)} MB (each: ${r.runs.map((x) => x.rssMb.toFixed(0)).join(', ')}) | ${pass ? 'pass' : '**FAIL**'} |\n`,
  );
});
