// The console's speed: (a) the JavaScript a first visit downloads, gzipped, read from console/dist (index.html's entry
// chunk and everything it imports statically, which includes the sign-in page and the frame; each lazily loaded page
// chunk listed apart), against a 200 kB budget; (b) the products page on a 100,000-product catalogue in headless
// Chromium: signed in, then client-side navigations (the router's own popstate path) to list pages deep into the
// catalogue and to searches, each timed in the page from the navigation's start to the first frame after the new
// page's first product row is in the DOM; and (c) typing in the search box while the list reloads: how long each
// keystroke waits for the main thread (keydown's input delay) and the long tasks meanwhile.
// A server from src/ on a scratch PostgreSQL database (bench/scratch.ts), the catalogue bulk-loaded by bench/load.ts.
// `npx tsx bench/console.ts [--products N]`; also part of `npm run bench`.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { CONSOLE_DIST, ensureConsoleBuilt, launchBrowser } from '../console/test/helpers/chromium.js';
import { loadCatalogue, RARE_TERM } from './load.js';
import { onScratchServer, runIfMain, type ScratchServer } from './scratch.js';

export const CONSOLE_TARGETS = { firstLoadGzipKb: 200, navigationMedianMs: 300, keyDelayMaxMs: 50 };
/** Pages of 25 across the whole catalogue, near its start and deep into it (the last page included). */
const listPages = (products: number) => {
  const last = Math.ceil(products / 25);
  const pages = [2, 3, 10, 50, ...[0.05, 0.25, 0.5, 0.75].map((f) => Math.round(last * f)), last];
  // Page 4 is the warm-up's (cached by then).
  return [...new Set(pages)].filter((n) => n >= 2 && n <= last && n !== 4).sort((a, b) => a - b);
};
const SEARCHES = [RARE_TERM, 'merino', 'parka'];
const TYPED = ['alpine', ' merino', ' sweater'];

const kb = (bytes: number) => bytes / 1000;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

// ---------------------------------------------------------------------------------------------------------------------
// (a) The bundle

export interface ChunkSize {
  file: string;
  bytes: number;
  gzip: number;
}

export interface ConsoleBundle {
  /** index.html's own scripts and modulepreloads, and the chunks they import statically (the sign-in route and the frame are in them). */
  firstLoad: ChunkSize[];
  firstLoadGzip: number;
  /** The stylesheets index.html links (not part of the JavaScript budget; shown for the full picture). */
  css: ChunkSize[];
  /** Each lazily imported chunk, with the chunks it needs that the first load does not already have. */
  lazy: { chunk: string; files: string[]; gzip: number }[];
}

const size = (dist: string, file: string): ChunkSize => {
  const body = readFileSync(path.join(dist, file));
  return { file, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
};

/** Static imports (`import … from "./x.js"`, `import "./x.js"`) and dynamic ones (`import("./x.js")`) of a built chunk, as asset paths. */
function importsOf(dist: string, file: string): { statics: string[]; dynamics: string[] } {
  const code = readFileSync(path.join(dist, file), 'utf8');
  const dir = path.posix.dirname(file);
  const resolve = (spec: string) => path.posix.normalize(path.posix.join(dir, spec));
  const statics = [...code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)].map((m) => resolve(m[1]));
  // Minified, a dynamic import's specifier may be a template literal.
  const dynamics = [...code.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)].map((m) => resolve(m[1]));
  return { statics: [...new Set(statics)], dynamics: [...new Set(dynamics)] };
}

/** A chunk and everything it imports statically, transitively. */
function closure(dist: string, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...importsOf(dist, file).statics);
  }
  return seen;
}

export function measureBundle(dist: string): ConsoleBundle {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1] ?? null;
  const local = (href: string | null) => (href?.startsWith('/') && !href.startsWith('//') ? href.slice(1) : null);
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => local(attr(m[0], 'src'))).filter((f): f is string => f !== null);
  const links = [...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]);
  const preloads = links.filter((l) => /rel="modulepreload"/.test(l)).map((l) => local(attr(l, 'href')));
  const styles = links.filter((l) => /rel="stylesheet"/.test(l)).map((l) => local(attr(l, 'href')));
  const first = closure(
    dist,
    [...scripts, ...preloads].filter((f): f is string => f !== null),
  );
  const firstLoad = [...first].sort().map((f) => size(dist, f));
  const lazyRoots = new Set([...first].flatMap((f) => importsOf(dist, f).dynamics));
  // Chunks no one imports dynamically from the first load but that a lazy chunk reaches are counted with that chunk.
  const lazy = [...lazyRoots]
    .filter((f) => !first.has(f))
    .sort()
    .map((chunk) => {
      const files = [...closure(dist, [chunk])].filter((f) => !first.has(f)).sort();
      return { chunk, files, gzip: files.reduce((sum, f) => sum + size(dist, f).gzip, 0) };
    });
  // Every built script is either in the first load or reached by a lazy chunk: otherwise the parse above missed an import.
  const reached = new Set([...first, ...lazy.flatMap((l) => l.files)]);
  const built = readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  const missed = built.filter((f) => !reached.has(f));
  if (missed.length) throw new Error(`chunks neither in the first load nor reached from a lazy import: ${missed.join(', ')}`);
  return {
    firstLoad,
    firstLoadGzip: firstLoad.reduce((sum, c) => sum + c.gzip, 0),
    css: styles.filter((f): f is string => f !== null).map((f) => size(dist, f)),
    lazy,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// (b) and (c) The products page in a browser

export interface Navigation {
  target: string;
  ms: number;
  rows: number;
  /** The list's own caption and count once rendered, to show each navigation reached the page it asked for. */
  caption: string;
  count: string;
}

export interface ConsoleBenchResult {
  bundle: ConsoleBundle;
  products: number;
  loadSeconds: number;
  browser: string;
  signInMs: number;
  navigations: Navigation[];
  medianMs: number;
  typing: {
    keys: number;
    delayP50: number;
    delayP95: number;
    delayMax: number;
    slowEvents: number;
    slowestEventMs: number;
    longTasks: number;
    longestTaskMs: number;
  };
}

/**
 * Runs in the page: a client-side navigation to `target` (history.pushState, then the popstate the router listens to,
 * as Back/Forward would), timed from just before it to the first animation frame after the list shows a first row that
 * is not the one before and not the stale previous page (the list keeps the last page, dimmed, while the next loads).
 */
const NAVIGATE = `(async (target) => {
  const current = () => {
    const wrap = document.querySelector('.table-wrap');
    if (!wrap || wrap.classList.contains('product-stale')) return null;
    // The first row's product link: its text changes later too (the completeness and Shopify columns fill in).
    const row = wrap.querySelector('tbody tr');
    return row ? (row.querySelector('a[href]')?.getAttribute('href') ?? row.textContent) : null;
  };
  const before = current();
  let observer;
  let timer;
  const done = new Promise((resolve, reject) => {
    observer = new MutationObserver(() => {
      const now = current();
      if (now !== null && now !== before) {
        observer.disconnect();
        clearTimeout(timer);
        requestAnimationFrame(() => resolve(performance.now()));
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    timer = setTimeout(() => { observer.disconnect(); reject(new Error('no new first row within 30 s for ' + target)); }, 30000);
  });
  performance.mark('navigation-start ' + target);
  const start = performance.now();
  history.pushState(null, '', target);
  dispatchEvent(new PopStateEvent('popstate', { state: null }));
  const end = await done;
  performance.measure('navigation ' + target, { start, end });
  return {
    ms: end - start,
    rows: document.querySelectorAll('.table-wrap tbody tr').length,
    caption: (document.querySelector('.table-wrap caption')?.textContent ?? '').trim(),
    count: (document.querySelector('.product-count')?.textContent ?? '').trim(),
  };
})`;

/** Runs in the page: from now on, every keydown's wait for the main thread, slow key events (Event Timing) and long tasks. */
const WATCH_TYPING = `(() => {
  const w = { delays: [], events: [], longTasks: [] };
  window.__typing = w;
  addEventListener('keydown', (e) => w.delays.push(performance.now() - e.timeStamp), { capture: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (/^key|input/.test(e.name)) w.events.push({ name: e.name, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: 16 });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) w.longTasks.push(e.duration); }).observe({ type: 'longtask' });
})()`;

async function signIn(page: Page, apiKey: string, apiSecret: string): Promise<number> {
  const started = performance.now();
  await page.goto('/sign-in?next=%2Fproducts');
  await page.getByLabel('API key').fill(apiKey);
  await page.getByLabel('API secret').fill(apiSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/products');
  await page.locator('.table-wrap:not(.product-stale) tbody tr').first().waitFor({ timeout: 60_000 });
  return performance.now() - started;
}

/**
 * The console's benchmark on a scratch server of its own, which serves a copy of console/dist made once it is fresh (a
 * rebuild during the run, by someone editing the console, would empty the assets under the page).
 */
export async function benchConsoleOnScratch(products = 100_000): Promise<ConsoleBenchResult> {
  await ensureConsoleBuilt();
  const served = mkdtempSync(path.join(os.tmpdir(), 'pimbridge-console-bench-'));
  try {
    cpSync(CONSOLE_DIST, served, { recursive: true });
    return await onScratchServer('console', (s) => benchConsole(s, served, products), { CONSOLE_DIR: served });
  } finally {
    rmSync(served, { recursive: true, force: true });
  }
}

/** `dist`: the built console the server at `s` serves. */
export async function benchConsole(s: ScratchServer, dist: string, products = 100_000): Promise<ConsoleBenchResult> {
  const bundle = measureBundle(dist);
  s.log(`first-load JavaScript ${kb(bundle.firstLoadGzip).toFixed(1)} kB gzipped; loading ${products} products`);

  const org = await (
    await fetch(`${s.url}/admin/organizations`, { method: 'POST', headers: s.adminHeaders, body: JSON.stringify({ name: 'Console bench' }) })
  ).json();
  const key = await (await fetch(`${s.url}/admin/organizations/${org.id}/api-keys`, { method: 'POST', headers: s.adminHeaders, body: '{}' })).json();
  const loadStarted = performance.now();
  const db = new pg.Client(s.dbUrl);
  await db.connect();
  try {
    await loadCatalogue(db, org.id, products);
  } finally {
    await db.end();
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  s.log(`loaded in ${loadSeconds.toFixed(1)} s; opening the console`);

  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: s.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const signInMs = await signIn(page, key.api_key, key.api_secret);

    // A warm-up navigation (page 4000's neighbour is not measured), then the measured ones, every target new to the
    // page's cache so each goes to the server.
    await page.evaluate(`${NAVIGATE}('/products?page=4')`);
    const navigations: Navigation[] = [];
    for (const target of [...listPages(products).map((n) => `/products?page=${n}`), ...SEARCHES.map((q) => `/products?q=${encodeURIComponent(q)}`)]) {
      const nav = (await page.evaluate(`${NAVIGATE}(${JSON.stringify(target)})`)) as Omit<Navigation, 'target'>;
      const wantedPage = /page=(\d+)/.exec(target)?.[1] ?? '1';
      if (!new RegExp(`page ${wantedPage} of`).test(nav.caption)) throw new Error(`${target} rendered "${nav.caption}"`);
      navigations.push({ target, ...nav });
      s.log(`${target}: ${nav.ms.toFixed(0)} ms (${nav.count})`);
    }

    // Typing: back to the plain list, then words typed at about 12 keys a second with a pause after each that lets the
    // 250 ms debounce fire, so later keys land while the list is fetched and rendered.
    await page.evaluate(`${NAVIGATE}('/products?page=5')`);
    const box = page.getByLabel('Search');
    await box.click();
    await page.evaluate(WATCH_TYPING);
    for (const word of TYPED) {
      await page.keyboard.type(word, { delay: 80 });
      await page.waitForTimeout(300);
    }
    // The last search has reached the URL and its answer the list (rows or "No products match").
    await page.waitForURL((u) => u.searchParams.get('q') === TYPED.join(''), { timeout: 30_000 });
    await page.waitForFunction("document.querySelector('.product-count') && !document.querySelector('.product-stale')", null, { timeout: 30_000 });
    const watched = (await page.evaluate('window.__typing')) as { delays: number[]; events: { name: string; duration: number }[]; longTasks: number[] };
    if ((await box.inputValue()) !== TYPED.join('')) throw new Error(`the search box holds "${await box.inputValue()}"`);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    await context.close();
    return {
      bundle,
      products,
      loadSeconds,
      browser: `Chromium ${browser.version()} (headless)`,
      signInMs,
      navigations,
      medianMs: median(navigations.map((n) => n.ms)),
      typing: {
        keys: watched.delays.length,
        delayP50: median(watched.delays),
        delayP95: quantile(watched.delays, 0.95),
        delayMax: Math.max(...watched.delays),
        slowEvents: watched.events.length,
        slowestEventMs: Math.max(0, ...watched.events.map((e) => e.duration)),
        longTasks: watched.longTasks.length,
        longestTaskMs: Math.max(0, ...watched.longTasks),
      },
    };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The report

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const k1 = (bytes: number) => `${kb(bytes).toFixed(1)} kB`;
const ms0 = (x: number) => `${x.toFixed(0)} ms`;

export function consoleTargets(r: ConsoleBenchResult) {
  const t = CONSOLE_TARGETS;
  const list = r.navigations.filter((n) => !n.target.includes('q='));
  const searches = r.navigations.filter((n) => n.target.includes('q='));
  return [
    {
      what: "console: the first visit's JavaScript (entry chunk, its static imports, sign-in and frame included), gzip -9",
      target: `≤ ${t.firstLoadGzipKb} kB`,
      measured: `${k1(r.bundle.firstLoadGzip)} (${r.bundle.firstLoad.length} files, ${k1(r.bundle.firstLoad.reduce((a, c) => a + c.bytes, 0))} raw)`,
      pass: kb(r.bundle.firstLoadGzip) <= t.firstLoadGzipKb,
    },
    {
      what: `console: products page on ${n0(r.products)} products, client-side navigation → first row rendered, median of ${r.navigations.length} (${list.length} list pages up to ${n0(Math.max(...list.map((n) => Number(/page=(\d+)/.exec(n.target)?.[1] ?? 1))))}, ${searches.length} searches)`,
      target: `≤ ${t.navigationMedianMs} ms`,
      measured: `${ms0(r.medianMs)} (min ${ms0(Math.min(...r.navigations.map((n) => n.ms)))}, max ${ms0(Math.max(...r.navigations.map((n) => n.ms)))})`,
      pass: r.medianMs <= t.navigationMedianMs,
    },
    {
      what: `console: typing in the product search while the list reloads, the longest a keystroke waited for the main thread (${r.typing.keys} keys)`,
      target: `≤ ${t.keyDelayMaxMs} ms`,
      measured: `${r.typing.delayMax.toFixed(1)} ms (p50 ${r.typing.delayP50.toFixed(1)} ms, p95 ${r.typing.delayP95.toFixed(1)} ms; ${r.typing.longTasks} long tasks, longest ${ms0(r.typing.longestTaskMs)})`,
      pass: r.typing.delayMax <= t.keyDelayMaxMs,
    },
  ];
}

export function consoleDetails(r: ConsoleBenchResult): string[] {
  const row = (c: (string | number)[]) => `| ${c.join(' | ')} |`;
  return [
    `Console (\`bench/console.ts\`): the JavaScript sizes are read from \`console/dist\` (gzip level 9 of each file, summed). The first load is what \`index.html\` loads (its module script and modulepreloads) and every chunk those import statically: React, the router, the query client, the API client, the frame and the sign-in page. Page chunks are imported lazily on first visit; each is listed with the chunks it needs that the first load has not brought.`,
    '',
    row(['first load', 'raw', 'gzip']),
    row(['---', '---', '---']),
    ...r.bundle.firstLoad.map((c) => row([`\`${c.file}\``, k1(c.bytes), k1(c.gzip)])),
    row(['**JavaScript in all**', k1(r.bundle.firstLoad.reduce((a, c) => a + c.bytes, 0)), `**${k1(r.bundle.firstLoadGzip)}**`]),
    ...r.bundle.css.map((c) => row([`\`${c.file}\` (stylesheet, not in the budget)`, k1(c.bytes), k1(c.gzip)])),
    '',
    row(['lazy chunk (page)', 'with', 'gzip']),
    row(['---', '---', '---']),
    ...r.bundle.lazy.map((l) =>
      row([
        `\`${l.chunk}\``,
        l.files.length > 1
          ? l.files
              .filter((f) => f !== l.chunk)
              .map((f) => `\`${f}\``)
              .join(', ')
          : '',
        k1(l.gzip),
      ]),
    ),
    '',
    `Products page: ${n0(r.products)} products bulk-loaded with SQL (\`bench/load.ts\`) in ${r.loadSeconds.toFixed(1)} s into an organization of its own on a server from src/ (scratch PostgreSQL database), ${r.browser} at 1280×800 on the same machine. Sign-in (form → first row of page 1) took ${ms0(r.signInMs)}. Each navigation is client-side: \`history.pushState\` and the \`popstate\` event the router follows (as Back/Forward does), timed in the page (\`performance.now()\`, marks and measures named \`navigation …\`) from just before it to the first animation frame after the list's first row is new and no longer the dimmed previous page. Every target is new to the page's query cache, so every one is a request to \`GET /api/products\` (25 per page, with the total). A warm-up navigation to page 4 first, not counted.`,
    '',
    row(['navigation', 'ms', 'rows', 'the list says']),
    row(['---', '---', '---', '---']),
    ...r.navigations.map((n) => row([`\`${n.target}\``, ms0(n.ms), n.rows, `${n.count}; ${n.caption}`])),
    '',
    `Typing: the search box focused on the plain list, then ${TYPED.map((w) => `"${w}"`).join(', ')} typed by Playwright at 80 ms a key with 300 ms after each word (the box pushes its text to the URL after 250 ms of quiet, so the list refetches and re-renders while the next word is typed). Per keydown, \`performance.now() − event.timeStamp\` in a capture listener: how long the key waited for the main thread. Event Timing reported ${r.typing.slowEvents} key or input event${r.typing.slowEvents === 1 ? '' : 's'} over 16 ms (slowest ${ms0(r.typing.slowestEventMs)}, from the key to the next paint); the Long Tasks API ${r.typing.longTasks} task${r.typing.longTasks === 1 ? '' : 's'} over 50 ms (longest ${ms0(r.typing.longestTaskMs)}).`,
    '',
  ];
}

runIfMain(import.meta.url, 'console', async () => {
  const at = process.argv.indexOf('--products');
  const products = at > 0 ? Number(process.argv[at + 1]) : 100_000;
  const r = await benchConsoleOnScratch(products);
  const row = (c: string[]) => `| ${c.join(' | ')} |`;
  process.stdout.write(
    `${[
      '',
      row(['target', 'wanted', 'measured', '']),
      row(['---', '---', '---', '---']),
      ...consoleTargets(r).map((t) => row([t.what, t.target, t.measured, t.pass ? 'pass' : '**FAIL**'])),
      '',
      ...consoleDetails(r),
    ].join('\n')}\n`,
  );
});
