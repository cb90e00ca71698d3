// Headless Chromium and a fresh console build, shared by the browser tests (browser.ts) and the console benchmark
// (bench/console.ts). No browser can be downloaded from a vendor's host here: @sparticuz/chromium ships one inside its
// npm package, so a fresh `npm install` is all it needs; /usr/bin/chromium (Debian's package) is used when present.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import chromium from '@sparticuz/chromium';
import { type Browser, chromium as playwright } from 'playwright-core';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** console/dist, or CONSOLE_TEST_DIST: a console built elsewhere, used as it is (no staleness check, no build). */
export const CONSOLE_DIST = process.env.CONSOLE_TEST_DIST ? path.resolve(process.env.CONSOLE_TEST_DIST) : path.join(ROOT, 'console', 'dist');

interface BuildScript {
  consoleIsFresh(root: string): boolean;
  ensureConsole(root: string): void;
}

/** console/dist built and no older than any console source (scripts/ensure-build.mjs: a Vite build of about a second when stale). */
export async function ensureConsoleBuilt(): Promise<void> {
  if (process.env.CONSOLE_TEST_DIST) {
    if (!existsSync(path.join(CONSOLE_DIST, 'index.html'))) throw new Error(`CONSOLE_TEST_DIST: no index.html in ${CONSOLE_DIST}`);
    return;
  }
  const build = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'ensure-build.mjs')).href)) as BuildScript;
  build.ensureConsole(ROOT);
  if (!build.consoleIsFresh(ROOT)) throw new Error('console/dist is still stale after the build (a console source changed meanwhile?)');
}

/** The flags every launch gets: no background traffic or first-run work. */
const EXTRA_ARGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * Headless Chromium: BROWSER_EXECUTABLE, or /usr/bin/chromium when present, or @sparticuz/chromium's binary (unpacked
 * to /tmp on first use, about 1.5 s), which works on a fresh clone.
 */
export async function launchBrowser(): Promise<Browser> {
  const system = process.env.BROWSER_EXECUTABLE ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null);
  if (system) return playwright.launch({ executablePath: system, args: EXTRA_ARGS, headless: true });
  // Its --single-process (for AWS Lambda's sandbox) ends the whole browser when any context closes: not wanted here.
  const args = chromium.args.filter((a) => a !== '--single-process');
  return playwright.launch({ executablePath: await chromium.executablePath(), args: [...args, ...EXTRA_ARGS], headless: true });
}
