// A catalogue file with one huge multi-line quoted cell among normal rows (a 50 MB file whose 48 MB HTML
// description used to stall the import for minutes and then fail it whole), generated as a stream of chunks so a test
// never holds the file as one string.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CsvFormat } from '../../src/catalogue-csv/draft.js';

export interface BigCellFile {
  /** The file's chunks, from the header to the last row. */
  chunks(): AsyncGenerator<Buffer>;
  /** The line the big cell's row starts on, and how many lines that row spans. */
  bigLine: number;
  bigLines: number;
  /** The keys (SKU in ours, Handle in Shopify's) of the normal rows, which import. */
  keys: string[];
  bigKey: string;
}

// 40 bytes a line, with a doubled quote and a comma in it, as HTML in a Shopify export looks.
const lineOf = (n: number) => `<p class=""d"">Line ${String(n).padStart(8, '0')}, ok</p>\n`;

/** `before` normal rows, the big row (a cell of about `cellBytes`), `afterRows` normal rows. */
export function bigCellFile(format: CsvFormat, options: { cellBytes: number; before?: number; after?: number }): BigCellFile {
  const before = options.before ?? 3;
  const after = options.after ?? 3;
  const cellLines = Math.ceil(options.cellBytes / lineOf(0).length);
  const keys: string[] = [];
  const prefix = format === 'ours' ? 'BIG-CELL' : 'big-cell';
  const key = (n: number) => `${prefix}-${n}`;
  const header = format === 'ours' ? 'sku,name,price,description\n' : 'Handle,Title,Body (HTML),Variant Price\n';
  const row = (k: string, description: string) => (format === 'ours' ? `${k},Product ${k},9.99,${description}\n` : `${k},Product ${k},${description},9.99\n`);
  for (let i = 0; i < before; i++) keys.push(key(i));
  for (let i = 0; i < after; i++) keys.push(key(before + 1 + i));
  const bigKey = key(before);
  return {
    bigLine: 2 + before,
    bigLines: cellLines,
    keys,
    bigKey,
    async *chunks() {
      let head = header;
      for (let i = 0; i < before; i++) head += row(key(i), `"short, <b>quoted</b> ""text"" ${i}"`);
      const bigRow = row(bigKey, '"\u0001').split('\u0001');
      yield Buffer.from(head + bigRow[0]);
      // The cell, about 1 MB a chunk; its last line ends without a line break, at the closing quote.
      const perChunk = 25_000;
      for (let n = 0; n < cellLines; n += perChunk) {
        let text = '';
        for (let i = n; i < Math.min(cellLines, n + perChunk); i++) text += lineOf(i);
        if (n + perChunk >= cellLines) text = text.slice(0, -1);
        yield Buffer.from(text);
      }
      let tail = `"${bigRow[1]}`;
      for (let i = 0; i < after; i++) tail += row(key(before + 1 + i), `"after the big one ${i}"`);
      yield Buffer.from(tail);
    },
  };
}

/** The file as a multipart/form-data body (field `file`), streamed: for inject() or fetch(). */
export function multipartStream(file: BigCellFile, fileName = 'big-cell.csv'): { body: Readable; contentType: string } {
  const boundary = `----pimbridge${randomUUID()}`;
  async function* body() {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`);
    yield* file.chunks();
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { body: Readable.from(body()), contentType: `multipart/form-data; boundary=${boundary}` };
}
