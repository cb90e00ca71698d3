// PGlite lets two processes open one data directory and silently diverge: a pid lock file refuses the second one.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { mkdirPrivate } from '../lib/private-files.js';

export class DataDirLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes DATA_DIR/pimbridge.lock for this process; returns the release function. A lock left by a dead process is taken over. */
export function acquireDataDirLock(dataDir: string): () => void {
  mkdirPrivate(dataDir);
  const file = path.join(dataDir, 'pimbridge.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another Pimbridge process (pid ${holder}). ` +
            'Stop it, or start this one with another DATA_DIR or with DATABASE_URL.',
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirLockedError(`Could not take the lock on ${dataDir}`);
}
