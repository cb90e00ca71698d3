// Uploading catalogue files in tests: a multipart body as a browser or curl sends it, and waiting for an import's end.
import { randomUUID } from 'node:crypto';
import type { Call } from './pim.js';
import { okData } from './pim.js';
import { until } from './jobs.js';

export function multipartFile(content: string | Buffer, options: { field?: string; fileName?: string } = {}): { body: Buffer; contentType: string } {
  const boundary = `----pimbridge${randomUUID()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.fileName ?? 'products.csv'}"\r\nContent-Type: text/csv\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POST /api/imports with the file; the raw answer. */
export function upload(call: Call, content: string | Buffer, query = '', options: { field?: string; fileName?: string } = {}) {
  const { body, contentType } = multipartFile(content, options);
  return call('POST', `/api/imports${query}`, body, { 'content-type': contentType });
}

/** Uploads, expects 202, and waits until the import has ended; its final view. */
export async function importFile(call: Call, content: string | Buffer, query = ''): Promise<any> {
  return importEnded(call, okData(await upload(call, content, query), 202));
}

/** Waits until the import (an answer of POST /api/imports or its like) has ended; its final view. */
export async function importEnded(call: Call, accepted: { id: string }): Promise<any> {
  return until(
    `import ${accepted.id} to end`,
    async () => {
      const view = okData(await call('GET', `/api/imports/${accepted.id}`));
      return view.state === 'completed' || view.state === 'failed' ? view : null;
    },
    60_000,
  );
}

/** A CSV text from rows of cells (quoted where needed), `\n` line ends. */
export function csv(rows: (string | number)[][]): string {
  return `${rows.map((r) => r.map((c) => (/[",\n\r]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',')).join('\n')}\n`;
}
