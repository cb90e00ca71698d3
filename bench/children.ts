// Child processes of the benchmark: started with their output in a log file (so the load generator in this process
// never spends CPU reading it), waited for until an HTTP path answers 200, measured (RSS), and always stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  logFile: string;
  /** performance.now() just before spawn. */
  spawnedAt: number;
  exited: Promise<number | null>;
}

const running = new Set<Child>();

export function start(name: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, cwd: string): Child {
  const fd = openSync(logFile, 'a');
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', fd, fd] });
  closeSync(fd); // the child holds its own copy
  if (proc.pid === undefined) throw new Error(`${name} did not start`);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const child: Child = { name, proc, pid: proc.pid, logFile, spawnedAt, exited };
  running.add(child);
  void exited.then(() => running.delete(child));
  return child;
}

/** Polls `url` every 10 ms until it answers 200; returns the milliseconds since the child was spawned. */
export async function waitFor200(child: Child, url: string, timeoutMs = 60_000): Promise<number> {
  let gone = false;
  void child.exited.then(() => (gone = true));
  while (performance.now() - child.spawnedAt < timeoutMs) {
    if (gone) throw new Error(`${child.name} exited before answering; see ${child.logFile}:\n${tail(child.logFile)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - child.spawnedAt;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`${child.name} did not answer 200 on ${url} within ${timeoutMs} ms; see ${child.logFile}`);
}

/** SIGTERM (graceful shutdown), then SIGKILL after `graceMs`. */
export async function stop(child: Child, graceMs = 5_000): Promise<void> {
  if (!running.has(child)) return;
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => stop(c)));
}

/** Synchronous last resort (process exit handlers cannot await). */
export function killAllNow(): void {
  for (const c of running) c.proc.kill('SIGKILL');
}

/** Resident set size in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
