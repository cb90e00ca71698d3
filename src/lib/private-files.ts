// DATA_DIR holds the embedded database, the generated secrets, media and uploads: nothing in it is for other local
// users. Folders are 0700 and files 0600, set on every start for what is already there (an older version, or PGlite,
// left 0755 folders and 0666 files) and given explicitly to what the server creates.
//
// Why not a process umask: PGlite's file system (Emscripten's NODEFS) creates each file and then chmods it to the mode
// PostgreSQL asked for, so a umask does not reach those files (measured with umask 077: its initdb still leaves 968
// files 0666). PostgreSQL derives that mode from its data folder's own mode (0700 → files 0600, 0750 → 0640;
// https://www.postgresql.org/docs/current/app-initdb.html, --allow-group-access), so once the folder is 0700 the files
// it makes later are 0600 by themselves; the walk after opening fixes what its initdb or the template unpacking wrote.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** What the walk did: entries whose mode was changed, and the ones it could not change (with the first failure). */
export interface PrivacyReport {
  changed: number;
  failed: number;
  firstFailure: { path: string; code: string } | null;
}

/** The file-system calls the walk makes (tests replace chmod to play a user who does not own the files). */
export interface PrivacyFs {
  chmod(file: string, mode: number): void;
}

const systemFs: PrivacyFs = { chmod: chmodSync };

/** Makes `dir` (and its parents) 0700 where it creates them. */
export function mkdirPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * What Pimbridge keeps in DATA_DIR: the embedded database (db/client.ts), media (pim/media/storage.ts), CSV uploads
 * (pim/catalogue-files), the generated secrets (config.ts) and the lock file (db/lock.ts). The walk of DATA_DIR touches
 * these and the folder itself, nothing else: a DATA_DIR pointed at a folder that holds other things (a home folder, a
 * checkout) keeps their modes — they are out of other users' reach anyway once the folder is 0700.
 */
export const DATA_DIR_ENTRIES = ['pglite', 'media', 'imports', 'secrets.json', 'pimbridge.lock'] as const;

/**
 * Sets every folder under `root` (itself included) to 0700 and every regular file to 0600; symbolic links are neither
 * followed nor changed (a chmod would change their target). A missing `root` is nothing to do. Never throws for a
 * mode it cannot set: the report counts it.
 */
export function makePrivate(root: string, fs: PrivacyFs = systemFs): PrivacyReport {
  const walk = walker(fs);
  walk.visit(root);
  return walk.report;
}

/**
 * DATA_DIR made private: the folder itself 0700 (followed if it is a link; left alone, and reported, if it is a shared
 * folder with the sticky bit such as /tmp), and each of DATA_DIR_ENTRIES walked as makePrivate does.
 */
export function makeDataDirPrivate(dataDir: string, fs: PrivacyFs = systemFs): PrivacyReport {
  const walk = walker(fs);
  if (process.platform === 'win32') return walk.report;
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(dataDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') walk.fail(dataDir, err);
    return walk.report;
  }
  if (!info.isDirectory()) return walk.report;
  if (info.mode & 0o1000) walk.fail(dataDir, { code: 'a shared folder (sticky bit): give DATA_DIR a folder of its own' });
  else if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) walk.chmod(dataDir, PRIVATE_DIR_MODE);
  for (const entry of DATA_DIR_ENTRIES) walk.visit(path.join(dataDir, entry));
  return walk.report;
}

function walker(fs: PrivacyFs) {
  const report: PrivacyReport = { changed: 0, failed: 0, firstFailure: null };
  const fail = (file: string, err: unknown) => {
    report.failed++;
    report.firstFailure ??= { path: file, code: (err as NodeJS.ErrnoException)?.code ?? String(err) };
  };
  const chmod = (file: string, mode: number) => {
    try {
      fs.chmod(file, mode);
      report.changed++;
    } catch (err) {
      fail(file, err);
    }
  };
  const visit = (file: string) => {
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') fail(file, err); // gone meanwhile: nothing to protect
      return;
    }
    const dir = info.isDirectory();
    if (!dir && !info.isFile()) return;
    const wanted = dir ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((info.mode & 0o777) !== wanted) chmod(file, wanted);
    if (!dir) return;
    let names: string[];
    try {
      names = readdirSync(file);
    } catch (err) {
      fail(file, err);
      return;
    }
    for (const name of names) visit(path.join(file, name));
  };
  return {
    report,
    fail,
    chmod,
    // Windows has no such modes (chmod only toggles read-only): the folder's ACL decides there.
    visit: (root: string) => {
      if (process.platform !== 'win32') visit(root);
    },
  };
}

/** The one warning line for a report with failures; null when everything is private. */
export function privacyWarning(dataDir: string, report: PrivacyReport): string | null {
  if (report.failed === 0 || !report.firstFailure) return null;
  const { path: file, code } = report.firstFailure;
  return (
    `DATA_DIR ${dataDir}: ${report.failed} file${report.failed === 1 ? '' : 's'} or folder${report.failed === 1 ? '' : 's'} could not be made ` +
    `private to this user (first: ${file}, ${code}${code === 'EPERM' ? ': not its owner' : ''}); other local users may read or change them. ` +
    `Run the server as the owner of DATA_DIR, or chown it to this user.`
  );
}
