// `pimbridge import FILE` and `pimbridge export`: clients of the PIM API's catalogue files (POST /api/imports,
// GET /api/imports/{id}[/errors.csv], GET /api/exports/products.csv). The file is streamed both ways, never held in
// memory. The caller's key is --api-key (or PIMBRIDGE_API_KEY); with --org the admin token issues a temporary key for
// that organization, revoked when the command ends, fails or is interrupted (Ctrl-C, SIGTERM): pim-session.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream, rmSync } from 'node:fs';
import { access, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ClientConfig } from '../config.js';
import type { CsvFormat } from '../catalogue-csv/draft.js';
import { CliError } from './errors.js';
import { type AuthOptions, causeOf, never, type PimClient, resolveAuth, type Session, withPim } from './pim-session.js';
import { CsvCounter, countsText, exportProgress, formatBytes, importProgress, type ImportCounts } from './progress.js';

export { FORMATS as CSV_FORMATS, type CsvFormat } from '../catalogue-csv/draft.js';

/** The import as GET /api/imports/{id} shows it. */
export interface ImportView extends ImportCounts {
  format: CsvFormat;
  dry_run: boolean;
  file_name: string;
  size_bytes: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface ImportCommandOptions extends AuthOptions {
  format?: CsvFormat;
  dryRun?: boolean;
}

const POLL_MS = 500;
/** How long polls may keep failing (server restarting, network hiccup) before the command gives up. */
const POLL_PATIENCE_MS = 60_000;

/** `pimbridge import FILE`: the exit code (0: every row and image imported; 1: the import, some rows or some images failed). */
export async function importCommand(client: () => ClientConfig, file: string, o: ImportCommandOptions): Promise<number> {
  const auth = resolveAuth(o);
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError(`${file} is not a file`);
    await access(file, constants.R_OK);
    size = info.size;
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message}`);
  }
  const err = process.stderr;
  const progress = importProgress(err);
  return withPim(client, auth, 'pimbridge import (temporary)', async (session) => {
    const { pim } = session;
    let importId: string | null = null;
    session.onInterrupt = () => {
      progress.stop();
      return importId ? `The import ${importId} continues on the server (GET /api/imports/${importId} shows where it stands).` : undefined;
    };
    const query = new URLSearchParams({ ...(o.format && { format: o.format }), ...(o.dryRun && { dry_run: 'true' }) }).toString();
    err.write(`Uploading ${file} (${formatBytes(size)}) to ${pim.baseUrl}${o.dryRun ? ' for a dry run' : ''}…\n`);
    let accepted: ImportView;
    try {
      accepted = await uploadFile(pim, `/api/imports${query ? `?${query}` : ''}`, file, size, (sent) => progress.uploading(sent, size));
    } finally {
      progress.stop();
    }
    importId = accepted.id;
    err.write(
      `Import ${accepted.id} accepted: ${accepted.rows_total} rows, format ${accepted.format}${accepted.dry_run ? ', dry run (nothing is written)' : ''}.\n`,
    );

    const final = await follow(session, accepted, progress);
    progress.stop();
    const rows = `${final.rows_done}/${final.rows_total} rows (${countsText(final)})`;
    const dry = final.dry_run ? ' (dry run: nothing was written)' : '';
    process.stdout.write(
      final.state === 'completed'
        ? `Import ${final.id} completed${dry}: ${rows}\n`
        : `Import ${final.id} failed${dry}: ${final.error ?? 'no reason given'}; ${rows}\n`,
    );

    // Rows refused and images not downloaded are both in errors.csv; either makes the exit code 1.
    const imagesFailed = final.images_failed ?? 0;
    if (final.failed > 0 || imagesFailed > 0) {
      const report = `/api/imports/${final.id}/errors.csv`;
      const local = `${file}.errors.csv`;
      const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      const what = [
        final.failed > 0 ? `${plural(final.failed, 'row')} failed` : '',
        imagesFailed > 0
          ? `${plural(imagesFailed, 'image')} could not be downloaded (${imagesFailed === 1 ? 'its product is' : 'their products are'} imported; the URL${imagesFailed === 1 ? ' is' : 's are'} kept and tried again at the next import)`
          : '',
      ]
        .filter(Boolean)
        .join('; ');
      try {
        await download(pim, report, local);
        process.stdout.write(`${what}: the reasons (line, sku, reason) are in ${local} (also at GET ${pim.url(report)})\n`);
      } catch (e) {
        process.stdout.write(`${what}: the reasons are at GET ${pim.url(report)}\n`);
        err.write(`Could not write ${local}: ${(e as Error).message}\n`);
      }
    }
    return final.state === 'completed' && final.failed === 0 && imagesFailed === 0 ? 0 : 1;
  });
}

/** POST multipart/form-data with the file in the field `file`, streamed from disk with a known length. */
async function uploadFile(pim: PimClient, pathAndQuery: string, file: string, size: number, onSent: (bytes: number) => void): Promise<ImportView> {
  const boundary = `----pimbridge-${randomUUID()}`;
  const fileName = path.basename(file).replace(/[\r\n"]/g, '_');
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body(): AsyncGenerator<Uint8Array> {
    yield head;
    let sent = 0;
    onSent(0);
    // Exactly `size` bytes (as announced in content-length), even if the file grows meanwhile.
    if (size > 0) {
      for await (const chunk of createReadStream(file, { start: 0, end: size - 1, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
        sent += chunk.length;
        onSent(sent);
        yield chunk;
      }
    }
    if (sent < size) throw new Error(`${file} shrank while it was being sent`);
    yield tail;
  }
  return pim.data<ImportView>(pathAndQuery, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
    body: body() as unknown as BodyInit,
    duplex: 'half',
    // Without these undici's fetch keeps every chunk sent (to replay the body on a redirect): a 200 MB file would
    // cost 200 MB of memory (nodejs/undici#4058). With them, memory stays at a few chunks.
    redirect: 'error',
    window: null,
    signal: undefined, // no time limit: a large upload takes as long as it takes
  });
}

/** Polls GET /api/imports/{id} every ~500 ms until the import has ended, feeding the progress display. */
async function follow(session: Session, accepted: ImportView, progress: ReturnType<typeof importProgress>): Promise<ImportView> {
  let view = accepted;
  let failingSince: number | null = null;
  progress.rows(view);
  while (view.state !== 'completed' && view.state !== 'failed') {
    await sleep(POLL_MS);
    if (session.interrupted) return never();
    try {
      view = await session.pim.data<ImportView>(`/api/imports/${encodeURIComponent(accepted.id)}`);
      failingSince = null;
    } catch (err) {
      if (!(err instanceof CliError) || !err.transient) throw err;
      if (failingSince === null) {
        failingSince = Date.now();
        progress.stop();
        process.stderr.write(`${err.message}; trying again for up to ${POLL_PATIENCE_MS / 1000} s…\n`);
      } else if (Date.now() - failingSince > POLL_PATIENCE_MS) {
        throw new CliError(`${err.message}; the import ${accepted.id} may still be running on the server`);
      }
      continue;
    }
    if (session.interrupted) return never();
    progress.rows(view);
  }
  return view;
}

/** Streams a GET answer into `file` (written beside it first, renamed when whole). */
async function download(pim: PimClient, pathAndQuery: string, file: string): Promise<void> {
  const res = await pim.request(pathAndQuery);
  if (!res.body) throw new Error('the answer has no body');
  const partial = `${file}.${process.pid}.part`;
  try {
    await pipeline(Readable.fromWeb(res.body as unknown as NodeReadableStream), createWriteStream(partial));
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

export interface ExportCommandOptions extends AuthOptions {
  format?: CsvFormat;
  status?: string;
  search?: string;
  brand?: number;
  channel?: string;
  category?: number;
  output?: string;
}

/** `pimbridge export`: the catalogue as CSV to --output or stdout (then nothing else goes to stdout). */
export async function exportCommand(client: () => ClientConfig, o: ExportCommandOptions): Promise<number> {
  const auth = resolveAuth(o);
  const toStdout = o.output === undefined || o.output === '-';
  const params = new URLSearchParams();
  for (const [name, value] of [
    ['format', o.format],
    ['search', o.search],
    ['status', o.status],
    ['brand', o.brand],
    ['channel', o.channel],
    ['category', o.category],
  ] as const) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const err = process.stderr;
  return withPim(client, auth, 'pimbridge export (temporary)', async (session) => {
    const res = await session.pim.request(`/api/exports/products.csv${params.size ? `?${params}` : ''}`);
    if (!res.body) throw new CliError('the export answer has no body');
    const partial = toStdout ? null : `${o.output}.${process.pid}.part`;
    const counter = new CsvCounter();
    const progress = exportProgress(err);
    session.onInterrupt = () => {
      progress.stop();
      if (partial) rmSync(partial, { force: true });
      return undefined;
    };
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        counter.add(chunk);
        progress.update(counter);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(res.body as unknown as NodeReadableStream), count, partial ? createWriteStream(partial) : process.stdout);
      if (partial) await rename(partial, o.output!);
    } catch (e) {
      progress.stop();
      if (partial) await rm(partial, { force: true });
      // The reader of stdout went away (`pimbridge export | head`): what it wanted was written.
      if (toStdout && (e as NodeJS.ErrnoException).code === 'EPIPE') return 0;
      if (session.interrupted) return never();
      const where = partial ? ` (nothing was written to ${o.output})` : '';
      throw new CliError(`The export broke off after ${counter.rows} rows: ${causeOf(e)}${where}`);
    }
    progress.stop();
    err.write(`Exported ${counter.rows} row${counter.rows === 1 ? '' : 's'} (${formatBytes(counter.bytes)}) to ${partial ? o.output : 'stdout'}.\n`);
    return 0;
  });
}
