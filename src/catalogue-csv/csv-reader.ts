// Reads a catalogue CSV (ours or Shopify's) as a stream of drafts, one product at a time.
//
// readDrafts yields, in file order:
//   { kind: 'header', format, columns }    first, once
//   { kind: 'errors', errors, lastLine }   rows that could not be read: a product's bad rows (just before its draft,
//                                          which leaves them out), a product whose first row is bad, broken CSV rows
//   { kind: 'draft', draft, lastLine }     a product, once all its rows are read (the next product began, or the end)
// `lastLine` is the last file line a product's events cover (its last row, a row spanning lines included): once both
// are handled, an importer can checkpoint it and later resume with `fromLine: lastLine`; events whose lines are all
// ≤ fromLine are not yielded again (every row is still read, so grouping and the duplicate checks see the whole
// file). Lines are physical (1-based, the header is line 1); a row spanning lines is reported by its first line.
//
// The record splitter in front of csv-parse (record-splitter.ts) finds the rows and their lines; csv-parse turns them
// into cells; ProductGrouper (product-grouper.ts) groups them into products.
import { parse } from 'csv-parse/sync';
import { type CsvFormat, FORMATS } from './draft.js';
import { oursHeaderProblems } from './ours-format.js';
import { oursRowFormat } from './ours-reader.js';
import type { CsvRow, RowFormat } from './row-format.js';
import { shopifyColumn, shopifyHeaderProblems } from './shopify-format.js';
import { shopifyRowFormat } from './shopify-reader.js';
import { type ProductEvent, ProductGrouper } from './product-grouper.js';
import { MAX_CELL_CHARS, MAX_ROW_CHARS, RecordSplitter, type Split, tooLong } from './record-splitter.js';

/** The file as a whole cannot be read (not CSV, not UTF-8, a header we do not know…): the upload is refused. */
export class CsvFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvFileError';
  }
}

export type ReadEvent = { kind: 'header'; format: CsvFormat; columns: string[] } | ProductEvent;

export type CsvInput = NodeJS.ReadableStream | AsyncIterable<Buffer | Uint8Array | string>;

// ---------------------------------------------------------------------------------------------------------------
// Bytes → text

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`);

/** The file's text, checked: UTF-8 (a BOM is dropped), no NUL bytes, at most maxBytes. */
async function* decode(input: CsvInput, maxBytes = Infinity): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let lines = 1;
  for await (const chunk of input as AsyncIterable<Buffer | Uint8Array | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (bytes === 0 && buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
      throw new CsvFileError('the file is UTF-16 text: save it as UTF-8 (in Excel: "CSV UTF-8")');
    }
    if (bytes === 0 && buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04) {
      throw new CsvFileError('the file is a ZIP archive, most likely an Excel workbook: save it as "CSV UTF-8" and upload that');
    }
    bytes += buf.length;
    if (bytes > maxBytes) throw new CsvFileError(`the file is larger than ${size(maxBytes)}`);
    if (buf.includes(0)) throw new CsvFileError('the file contains NUL bytes: it is binary or UTF-16, not a CSV text file; save it as "CSV UTF-8"');
    let text: string;
    try {
      text = decoder.decode(buf, { stream: true });
    } catch {
      const lossy = new TextDecoder('utf-8').decode(buf);
      const at = lines + (lossy.slice(0, Math.max(0, lossy.indexOf('\uFFFD'))).match(/\n/g)?.length ?? 0);
      throw new CsvFileError(`the file is not UTF-8 (around line ${at}; Windows-1252 or Latin-1?): save it as UTF-8 (in Excel: "CSV UTF-8")`);
    }
    lines += text.match(/\n/g)?.length ?? 0;
    yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new CsvFileError('the file is not UTF-8 (it ends inside a multi-byte character): save it as UTF-8');
  }
}

const PARSE_OPTIONS = { bom: true, relax_column_count: true, skip_records_with_error: true, trim: true, record_delimiter: '\n' } as const;

type Record_ = { row: CsvRow } | Extract<Split, { broken: string }>;

/** Well-formed records → cells: one csv-parse call per batch; one per record if the batch does not come out 1:1. */
function parseRecords(splits: Split[]): Record_[] {
  const good = splits.filter((s): s is Extract<Split, { text: string }> => 'text' in s && s.text.trim() !== '');
  let batch: string[][] | null = null;
  if (good.length > 0) {
    let skipped = false;
    batch = parse(good.map((s) => s.text).join('\n'), { ...PARSE_OPTIONS, on_skip: () => void (skipped = true) }) as string[][];
    if (skipped || batch.length !== good.length) batch = null;
  }
  let g = 0;
  return splits.flatMap((s): Record_[] => {
    if ('broken' in s) return [s];
    if (s.text.trim() === '') return [];
    let cells = batch?.[g++];
    if (!cells) {
      let reason = '';
      const one = parse(s.text, { ...PARSE_OPTIONS, on_skip: (err) => void (reason = err?.message ?? 'unreadable') }) as string[][];
      if (reason || one.length !== 1) return [{ broken: `the row is not valid CSV (${reason || 'more than one record'})`, line: s.line, endLine: s.endLine }];
      cells = one[0];
    }
    return cells.every((c) => c.trim() === '') ? [] : [{ row: { line: s.line, endLine: s.endLine, cells } }];
  });
}

/** The file's records (blank ones left out) or broken rows, in order. */
async function* records(input: CsvInput, maxBytes?: number): AsyncGenerator<Record_> {
  const splitter = new RecordSplitter();
  for await (const text of decode(input, maxBytes)) yield* parseRecords(splitter.push(text));
  yield* parseRecords(splitter.end());
}

// ---------------------------------------------------------------------------------------------------------------
// Header

/** The index of the column holding the product key: `sku` in ours, `Handle` in Shopify's. */
function keyColumn(header: { format: CsvFormat; columns: string[] }): number {
  return header.format === 'ours' ? header.columns.indexOf('sku') : header.columns.findIndex((c) => shopifyColumn(c) === 'Handle');
}

function detectFormat(columns: string[]): CsvFormat | null {
  const named = columns.map(shopifyColumn);
  if (named.includes('Handle') && named.includes('Title')) return 'shopify';
  if (columns.includes('sku') && !named.includes('Handle')) return 'ours';
  return null;
}

function openHeader(cells: string[], line: number, format: CsvFormat | undefined): { format: CsvFormat; columns: string[]; rowFormat: RowFormat } {
  const columns = cells.map((c) => c.trim());
  if (format !== undefined && !FORMATS.includes(format)) throw new CsvFileError(`unknown format '${format}'`);
  const detected = detectFormat(columns);
  const chosen = format ?? detected;
  if (!chosen) {
    const shown =
      columns
        .slice(0, 8)
        .map((c) => `'${c}'`)
        .join(', ') + (columns.length > 8 ? ', …' : '');
    const separator =
      columns.length === 1 && /[;\t]/.test(columns[0])
        ? ` It seems to use '${columns[0].includes(';') ? ';' : 'tab'}' between columns: save it with commas (in Excel: "CSV UTF-8 (comma delimited)").`
        : '';
    throw new CsvFileError(
      `line ${line} is not a header we know: our format needs a 'sku' column, a Shopify export 'Handle' and 'Title' columns (found ${shown}).${separator}`,
    );
  }
  const problems = chosen === 'ours' ? oursHeaderProblems(columns) : shopifyHeaderProblems(columns);
  if (format !== undefined && detected !== null && detected !== format) problems.unshift(`the header looks like the ${detected} format`);
  if (problems.length > 0)
    throw new CsvFileError(`the header (line ${line}) does not fit the ${chosen === 'ours' ? 'Pimbridge' : 'Shopify'} format: ${problems.join('; ')}`);
  return { format: chosen, columns, rowFormat: chosen === 'ours' ? oursRowFormat(columns) : shopifyRowFormat(columns) };
}

// ---------------------------------------------------------------------------------------------------------------
// API

/**
 * The drafts of a CSV file, streamed (one product's rows held at a time). Throws CsvFileError when the file cannot be
 * read at all (encoding, header); bad rows are RowErrors in the events.
 */
export async function* readDrafts(input: CsvInput, options: { format?: CsvFormat; fromLine?: number } = {}): AsyncGenerator<ReadEvent> {
  const fromLine = options.fromLine ?? 0;
  let grouper: ProductGrouper | null = null;
  let header: ReturnType<typeof openHeader> | null = null;
  for await (const record of records(input)) {
    if (!grouper || !header) {
      if ('broken' in record) throw new CsvFileError(`the header (line ${record.line}) cannot be read: ${record.broken}`);
      header = openHeader(record.row.cells, record.row.line, options.format);
      grouper = new ProductGrouper(header.rowFormat);
      yield { kind: 'header', format: header.format, columns: header.columns };
      continue;
    }
    let events: ProductEvent[];
    if (!('broken' in record)) events = grouper.row(record.row);
    else if (!record.long) events = grouper.broken(record.line, record.endLine, record.broken);
    else {
      // A row too long to read: its column named, and its product's key read from the cells before the long one.
      const { long } = record;
      const column = long.cell === null ? undefined : header.columns[long.cell];
      const reason = tooLong(long, record.line, record.endLine, MAX_CELL_CHARS, MAX_ROW_CHARS, column);
      events = grouper.broken(record.line, record.endLine, reason, headKey(long.head, header.rowFormat, keyColumn(header)));
    }
    for (const event of events) if (event.lastLine > fromLine) yield event;
  }
  if (!grouper) throw new CsvFileError('the file is empty');
  for (const event of grouper.end()) if (event.lastLine > fromLine) yield event;
}

/**
 * The product key of a too-long row, from the cells before the long one: '' when the row continues the product above,
 * null when the key is not among those cells (or they cannot be read).
 */
function headKey(head: string, format: RowFormat, keyColumn: number): string | null {
  if (head === '') return null;
  let skipped = false;
  const rows = parse(head, { ...PARSE_OPTIONS, on_skip: () => void (skipped = true) }) as string[][];
  // The head ends with the comma before the long cell: its last (empty) cell is that one's place, not a value.
  if (skipped || rows.length !== 1 || keyColumn < 0 || keyColumn >= rows[0].length - 1) return null;
  return format.productKey(rows[0]);
}

/**
 * The upload-time check: the file is UTF-8 CSV text of at most maxBytes with a header we know and data rows. Returns
 * the format, the columns and the number of data rows (broken ones included); throws CsvFileError with the reason.
 */
export async function inspectCsv(
  input: CsvInput,
  options: { format?: CsvFormat; maxBytes: number },
): Promise<{ format: CsvFormat; rows: number; columns: string[] }> {
  let header: { format: CsvFormat; columns: string[] } | null = null;
  let rows = 0;
  for await (const record of records(input, options.maxBytes)) {
    if (header) rows++;
    else if ('broken' in record) throw new CsvFileError(`the header (line ${record.line}) cannot be read: ${record.broken}`);
    else header = openHeader(record.row.cells, record.row.line, options.format);
  }
  if (!header) throw new CsvFileError('the file is empty');
  if (rows === 0) throw new CsvFileError('the file has a header but no data rows');
  return { format: header.format, rows, columns: header.columns };
}
