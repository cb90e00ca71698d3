// Progress of `pimbridge import` and `pimbridge export` on stderr: a cli-progress bar on a terminal, else a plain line
// every ~2 s (logs and CI output stay readable). stdout is never written here.
import cliProgress from 'cli-progress';

/** What the import progress shows of GET /api/imports/{id}. */
export interface ImportCounts {
  id: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  rows_total: number;
  rows_done: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** Images that could not be downloaded (their rows are imported); absent from a server before it was counted. */
  images_failed?: number;
}

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

export const PLAIN_EVERY_MS = 2_000;

/** Throughput over the last few seconds (a rate since the start would lag behind a change of pace). */
export class RateMeter {
  private samples: { at: number; value: number }[] = [];

  constructor(
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  add(value: number): void {
    const at = this.now();
    this.samples.push({ at, value });
    while (this.samples.length > 2 && at - this.samples[1].at >= this.windowMs) this.samples.shift();
  }

  /** Units per second, or null before two samples a moment apart. */
  perSecond(): number | null {
    if (this.samples.length < 2) return null;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const seconds = (last.at - first.at) / 1000;
    return seconds >= 0.25 ? Math.max(0, (last.value - first.value) / seconds) : null;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export const countsText = (v: Pick<ImportCounts, 'created' | 'updated' | 'unchanged' | 'failed' | 'images_failed'>) =>
  `created ${v.created}, updated ${v.updated}, unchanged ${v.unchanged}, failed ${v.failed}${v.images_failed ? `, images failed ${v.images_failed}` : ''}`;

/** The non-terminal progress line of an import. */
export const importLine = (v: ImportCounts) =>
  `import ${v.id}: ${v.state === 'queued' ? 'queued, ' : ''}${v.rows_done}/${v.rows_total} rows (${countsText(v)})`;

/** The two phases of an import's progress: the upload (bytes), then the rows the server's job has processed. */
export interface ImportProgress {
  uploading(sent: number, total: number): void;
  rows(view: ImportCounts): void;
  /** Removes the bar (leaving its last state on screen); safe to call twice. */
  stop(): void;
}

export function importProgress(stream: Output & NodeJS.WritableStream, tty = Boolean(stream.isTTY), now: () => number = Date.now): ImportProgress {
  return tty ? new BarProgress(stream) : new PlainProgress(stream, now);
}

class PlainProgress implements ImportProgress {
  private lastLine = 0;
  private uploadStarted = 0;
  private uploadLines = 0;
  private uploadDone = false;

  constructor(
    private readonly out: Output,
    private readonly now: () => number,
  ) {}

  uploading(sent: number, total: number): void {
    if (this.uploadDone) return;
    if (sent >= total) {
      this.uploadDone = true;
      // A file sent in under 2 s needs no line of its own.
      if (this.uploadLines > 0) this.out.write(`upload: ${formatBytes(total)} sent\n`);
      this.lastLine = this.now();
      return;
    }
    if (this.uploadStarted === 0) this.uploadStarted = this.lastLine = this.now();
    else if (this.now() - this.lastLine >= PLAIN_EVERY_MS) {
      this.lastLine = this.now();
      this.uploadLines++;
      this.out.write(`upload: ${formatBytes(sent)}/${formatBytes(total)} sent\n`);
    }
  }

  rows(view: ImportCounts): void {
    if (view.state === 'completed' || view.state === 'failed') return; // the summary line says it
    if (this.lastLine === 0) this.lastLine = this.now();
    else if (this.now() - this.lastLine < PLAIN_EVERY_MS) return;
    this.lastLine = this.now();
    this.out.write(`${importLine(view)}\n`);
  }

  stop(): void {}
}

class BarProgress implements ImportProgress {
  private upload: cliProgress.SingleBar | null = null;
  private bar: cliProgress.SingleBar | null = null;
  private uploadRate = new RateMeter();
  private rowRate = new RateMeter(5_000);

  constructor(private readonly stream: NodeJS.WritableStream) {}

  private make(format: string): cliProgress.SingleBar {
    return new cliProgress.SingleBar(
      { format, stream: this.stream, barsize: 24, hideCursor: false, clearOnComplete: false, fps: 8, etaBuffer: 20, autopadding: true },
      cliProgress.Presets.shades_classic,
    );
  }

  uploading(sent: number, total: number): void {
    this.uploadRate.add(sent);
    const rate = this.uploadRate.perSecond();
    const payload = {
      sent: formatBytes(sent),
      size: formatBytes(total),
      speed: rate === null ? '--' : `${formatBytes(Math.round(rate))}/s`,
      left: formatDuration(rate ? (total - sent) / rate : null),
    };
    if (!this.upload) {
      this.upload = this.make('upload   {bar} {percentage}% | {sent}/{size} | {speed} | ETA {left}');
      this.upload.start(Math.max(total, 1), sent, payload);
    } else this.upload.update(sent, payload);
    if (sent >= total) {
      this.upload.stop();
      this.upload = null;
    }
  }

  rows(view: ImportCounts): void {
    this.upload?.stop();
    this.upload = null;
    // Only while running: the time spent queued would drag the rate down.
    if (view.state === 'running') this.rowRate.add(view.rows_done);
    const rate = this.rowRate.perSecond();
    const finished = view.state === 'completed' || view.state === 'failed';
    const payload = {
      state: view.state.padEnd(9),
      rate: rate === null ? '--' : rate >= 100 ? Math.round(rate).toLocaleString('en') : rate.toFixed(1),
      left: finished ? '0s' : formatDuration(rate ? (view.rows_total - view.rows_done) / rate : null),
      failed: `${view.failed}${view.images_failed ? `, images failed ${view.images_failed}` : ''}`,
    };
    if (!this.bar) {
      this.bar = this.make('{state}{bar} {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {left} | failed {failed}');
      this.bar.start(Math.max(view.rows_total, 1), view.rows_done, payload);
    } else {
      this.bar.setTotal(Math.max(view.rows_total, 1));
      this.bar.update(view.rows_done, payload);
    }
  }

  stop(): void {
    this.upload?.stop();
    this.bar?.stop();
    this.upload = null;
    this.bar = null;
  }
}

/** What an export has written: bytes, and CSV records (a newline inside a quoted field is not a record). */
export class CsvCounter {
  bytes = 0;
  records = 0;
  private quoted = false;

  add(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === 0x22) this.quoted = !this.quoted;
      else if (c === 0x0a && !this.quoted) this.records++;
    }
  }

  /** Data rows: records after the header. */
  get rows(): number {
    return Math.max(0, this.records - 1);
  }
}

/** An export's progress: on a terminal one line rewritten in place (bytes, rows, speed); elsewhere nothing until the end. */
export function exportProgress(stream: Output & NodeJS.WritableStream, tty = Boolean(stream.isTTY)): { update(c: CsvCounter): void; stop(): void } {
  if (!tty) return { update() {}, stop() {} };
  const meter = new RateMeter(5_000);
  let last = 0;
  let shown = false;
  const render = (c: CsvCounter) => {
    meter.add(c.bytes);
    const rate = meter.perSecond();
    const line = `export: ${c.rows.toLocaleString('en')} rows, ${formatBytes(c.bytes)} written${rate === null ? '' : ` (${formatBytes(Math.round(rate))}/s)`}`;
    stream.write(`\r${line}\x1b[K`);
    shown = true;
  };
  let latest: CsvCounter | null = null;
  return {
    update(c) {
      latest = c;
      const t = Date.now();
      if (t - last < 125) return;
      last = t;
      render(c);
    },
    stop() {
      if (latest) render(latest);
      if (shown) stream.write('\n');
      shown = false;
    },
  };
}
