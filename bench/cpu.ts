// How much of the machine's CPU went to processes outside the benchmark while a measurement ran. The machine may be
// shared (other builds or test suites): the report says so instead of silently publishing depressed figures.
import { readFileSync } from 'node:fs';
import os from 'node:os';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Busy CPU time of the whole machine, in ms (all CPUs, idle and iowait excluded). */
function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return (total - fields[3] - fields[4]) * TICK_MS;
}

/** User + system CPU time of one process, in ms; 0 once it has gone. */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * Starts watching; `stop()` returns the share (0–1) of all CPUs that processes other than this one and those that
 * `ownPids` lists (the servers and their database backends, listed again at the end) used in between.
 */
export async function watchForeignCpu(ownPids: () => Promise<number[]> = async () => []): Promise<{ stop: () => Promise<number> }> {
  const snapshot = async () => new Map((await ownPids()).map((pid) => [pid, processCpuMs(pid)]));
  const started = performance.now();
  const self0 = process.cpuUsage(); // this process: the load generator
  const machine0 = machineBusyMs();
  const own0 = await snapshot();
  return {
    async stop() {
      const own1 = await snapshot();
      const self = process.cpuUsage(self0);
      let ours = (self.user + self.system) / 1000;
      // A process that started during the window (a new pooled connection's backend) used all its CPU in it; one that
      // ended is left out, so what it used counts as foreign (an overestimate, never an underestimate).
      for (const [pid, ms] of own1) ours += ms - (own0.get(pid) ?? 0);
      const foreign = machineBusyMs() - machine0 - ours;
      return Math.max(0, foreign / ((performance.now() - started) * os.cpus().length));
    },
  };
}
