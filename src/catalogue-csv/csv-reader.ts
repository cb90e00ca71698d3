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
// Why our own record splitter in front of csv-parse: csv-parse (v6) reads an unterminated quote as one cell running to
// the end of the file, and reports CSV_QUOTE_NOT_CLOSED only there (every row after the quote is lost); after an
// invalid closing quote (`"a"b`) it stays inside the quotes and swallows the rest too; and its info.lines counts a CRLF
// inside a quoted cell as two lines. So the splitter finds the rows (RFC 4180 quoting, CRLF/LF/CR) and their exact
// lines, and checks the quoting: a row with a stray quote is reported as it is; a quote that is never closed, or closed
// and then followed by text, is reported on the row's first line and reading resumes on the next line (a quoted cell
// is given at most MAX_ROW_CHARS, far beyond the PIM's 65,535-character descriptions, so memory stays bounded). The
// rows it passes are well-formed, and csv-parse turns them into cells.
import { parse } from 'csv-parse/sync';
import { type CsvFormat, FORMATS, type ProductDraft, type RowError } from './draft.js';
import { oursHeaderProblems, oursRowFormat } from './ours-format.js';
import type { CsvRow, RowFormat } from './row-format.js';
import { shopifyColumn, shopifyHeaderProblems, shopifyRowFormat } from './shopify-format.js';

/** The file as a whole cannot be read (not CSV, not UTF-8, a header we do not know…): the upload is refused. */
export class CsvFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvFileError';
  }
}

export type ReadEvent =
  | { kind: 'header'; format: CsvFormat; columns: string[] }
  | { kind: 'draft'; draft: ProductDraft; lastLine: number }
  | { kind: 'errors'; errors: RowError[]; lastLine: number };

export type CsvInput = NodeJS.ReadableStream | AsyncIterable<Buffer | Uint8Array | string>;

export const MAX_ROW_CHARS = 4 * 1024 * 1024;

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

// ---------------------------------------------------------------------------------------------------------------
// Text → records

type Split = { text: string; line: number; endLine: number } | { broken: string; line: number; endLine: number };

const STRAY_QUOTE = 'a quote (") inside a cell that does not start with one; put the whole cell in quotes and write the quote twice ("")';
const NOT_CLOSED = 'a quoted cell is never closed (a missing closing quote "?); this line was skipped and reading went on with the next';
const TEXT_AFTER_QUOTE =
  'a quoted cell is not closed properly: a quote (") in it is followed by more text (a missing closing quote, or a quote inside not written twice ""); this line was skipped';
const TOO_LONG = `the row is longer than ${MAX_ROW_CHARS / 1024 / 1024} Mi characters (a quote that is never closed?); this line was skipped`;

/** Cuts text into records with their lines (see the top of the file). Push text, then end(). */
export class RecordSplitter {
  private buf = '';
  private start = 0; // first character of the current record
  private pos = 0; // where scanning goes on
  private fieldBegin = 0;
  private line = 1; // line of `start`
  private breaks = 0; // line breaks in the current record before `pos`
  private inQuotes = false;
  private stray = false;
  private skipLine = false; // drop the rest of a broken record's first line

  constructor(private readonly maxRowChars = MAX_ROW_CHARS) {}

  push(text: string): Split[] {
    this.buf = this.buf.slice(this.start) + text;
    this.pos -= this.start;
    this.fieldBegin -= this.start;
    this.start = 0;
    return this.drain(false);
  }

  end(): Split[] {
    return this.drain(true);
  }

  private drain(final: boolean): Split[] {
    const out: Split[] = [];
    const buf = this.buf;
    const len = buf.length;
    for (;;) {
      if (this.skipLine) {
        const m = /[\r\n]/g;
        m.lastIndex = this.pos;
        const found = m.exec(buf);
        if (!found || (buf[found.index] === '\r' && found.index + 1 >= len && !final)) {
          // The line goes on in the next chunk (or the file ends): drop what is read of it.
          this.start = this.pos = this.fieldBegin = found ? found.index : len;
          return out;
        }
        const next = buf[found.index] === '\r' && buf[found.index + 1] === '\n' ? found.index + 2 : found.index + 1;
        this.line += 1;
        this.start = this.pos = this.fieldBegin = next;
        this.skipLine = false;
        continue;
      }
      if (this.inQuotes) {
        const q = buf.indexOf('"', this.pos);
        if (q === -1) {
          const end = !final && buf.endsWith('\r') ? len - 1 : len;
          this.breaks += countBreaks(buf, this.pos, end);
          this.pos = end;
          if (final) this.broken(out, NOT_CLOSED);
          else if (this.pos - this.start > this.maxRowChars) this.broken(out, TOO_LONG);
          else return out;
          continue;
        }
        this.breaks += countBreaks(buf, this.pos, q);
        this.pos = q;
        if (buf[q + 1] === '"') {
          this.pos = q + 2; // an escaped quote
          continue;
        }
        let after = q + 1;
        while (after < len && (buf[after] === ' ' || buf[after] === '\t')) after++;
        if (after >= len && !final) return out;
        const c = buf[after];
        if (c === undefined || c === ',' || c === '\r' || c === '\n') {
          this.inQuotes = false;
          this.pos = after;
        } else this.broken(out, TEXT_AFTER_QUOTE);
        continue;
      }
      const special = /[",\r\n]/g;
      special.lastIndex = this.pos;
      const m = special.exec(buf);
      if (!m) {
        this.pos = len;
        if (final) {
          if (this.start < len) this.emit(out, len, len);
          return out;
        }
        if (this.pos - this.start > this.maxRowChars) {
          this.broken(out, TOO_LONG);
          continue;
        }
        return out;
      }
      const i = m.index;
      const c = buf[i];
      if (c === ',') {
        this.pos = this.fieldBegin = i + 1;
      } else if (c === '"') {
        if (/^[ \t]*$/.test(buf.slice(this.fieldBegin, i))) this.inQuotes = true;
        else this.stray = true;
        this.pos = i + 1;
      } else if (c === '\n') {
        this.emit(out, i, i + 1);
      } else {
        if (i + 1 >= len && !final) {
          this.pos = i;
          return out;
        }
        this.emit(out, i, buf[i + 1] === '\n' ? i + 2 : i + 1);
      }
    }
  }

  private emit(out: Split[], end: number, next: number): void {
    const record = { line: this.line, endLine: this.line + this.breaks };
    out.push(this.stray ? { broken: STRAY_QUOTE, ...record } : { text: this.buf.slice(this.start, end), ...record });
    this.line = record.endLine + 1;
    this.start = this.pos = this.fieldBegin = next;
    this.breaks = 0;
    this.stray = false;
  }

  /** The record from `start` cannot be delimited: report its first line and go on with the next. */
  private broken(out: Split[], reason: string): void {
    out.push({ broken: reason, line: this.line, endLine: this.line });
    this.inQuotes = this.stray = false;
    this.breaks = 0;
    this.pos = this.start;
    this.skipLine = true;
  }
}

function countBreaks(buf: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = buf.charCodeAt(i);
    if (c === 10 || (c === 13 && buf.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

const PARSE_OPTIONS = { bom: true, relax_column_count: true, skip_records_with_error: true, trim: true, record_delimiter: '\n' } as const;

type Record_ = { row: CsvRow } | { broken: string; line: number; endLine: number };

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
// Rows → products

type ProductEvent = Exclude<ReadEvent, { kind: 'header' }>;

/** Groups consecutive rows into products and checks what spans products: consecutiveness, duplicate variant SKUs. */
class ProductGrouper {
  private key = '';
  private rows: CsvRow[] = [];
  private errors: RowError[] = [];
  private failed: string | null = null;
  private lastLine = 0;
  private afterBroken: number | null = null;
  private readonly productLines = new Map<string, number>();
  private readonly variantLines = new Map<string, number>();
  /** Product SKUs by first line: in Shopify's format a product's SKU is its variant's, not its grouping key. */
  private readonly skuLines = new Map<string, number>();

  constructor(private readonly format: RowFormat) {}

  row(row: CsvRow): ProductEvent[] {
    const key = this.format.productKey(row.cells);
    if (key === '') {
      const reason =
        this.afterBroken !== null
          ? `the row above (line ${this.afterBroken}) could not be read, so it is unclear which product this row continues; fill in its ${this.format.keyName}`
          : this.key === ''
            ? `the ${this.format.keyName} is empty and there is no product above for the row to continue`
            : this.failed;
      if (reason) this.error({ line: row.line, sku: this.key || null, reason }, row.endLine);
      else this.add(row);
      return [];
    }
    this.afterBroken = null;
    if (key === this.key) {
      if (this.failed) this.error({ line: row.line, sku: key, reason: this.failed }, row.endLine);
      else this.add(row);
      return [];
    }
    const done = this.flush();
    this.key = key;
    const seen = this.productLines.get(key);
    if (seen !== undefined) {
      this.failed = `${this.format.keyName} '${key}' already appeared at line ${seen}; a product's rows must be consecutive`;
      this.error({ line: row.line, sku: key, reason: this.failed }, row.endLine);
    } else {
      this.productLines.set(key, row.line);
      this.add(row);
    }
    return done;
  }

  broken(line: number, endLine: number, reason: string): ProductEvent[] {
    this.error({ line, sku: null, reason }, endLine);
    this.afterBroken = line;
    return [];
  }

  end(): ProductEvent[] {
    return this.flush();
  }

  private add(row: CsvRow): void {
    this.rows.push(row);
    this.lastLine = Math.max(this.lastLine, row.endLine);
  }

  private error(error: RowError, endLine: number): void {
    this.errors.push(error);
    this.lastLine = Math.max(this.lastLine, endLine);
  }

  /** A variant SKU seen before fails its row; on the product's first row, the whole product (as any first-row error). */
  private withoutDuplicateVariants(draft: ProductDraft, errors: RowError[]): ProductDraft | null {
    const reasons = new Map<number, string>();
    const within = new Map<string, number>();
    for (const v of draft.variants) {
      const seen = this.variantLines.get(v.sku) ?? within.get(v.sku);
      if (seen !== undefined) reasons.set(v.line, `variant SKU '${v.sku}' already appeared at line ${seen}`);
      else within.set(v.sku, v.line);
    }
    const first = reasons.get(draft.line);
    if (first) {
      const skipped = `not read: the product's first row (line ${draft.line}) has errors`;
      errors.push(...draft.lines.map((line) => ({ line, sku: this.key, reason: line === draft.line ? first : skipped })));
      return null;
    }
    for (const [line, reason] of reasons) errors.push({ line, sku: this.key, reason });
    draft.variants = draft.variants.filter((v) => !reasons.has(v.line));
    draft.lines = draft.lines.filter((line) => !reasons.has(line));
    for (const [sku, line] of within) this.variantLines.set(sku, line);
    return draft;
  }

  /** Two products with one SKU would be one product in the catalogue: the later one fails, every row of it. */
  private withoutDuplicateSku(draft: ProductDraft, errors: RowError[]): ProductDraft | null {
    const seen = this.skuLines.get(draft.sku);
    if (seen === undefined) {
      this.skuLines.set(draft.sku, draft.line);
      return draft;
    }
    const reason = `product SKU '${draft.sku}' already appeared at line ${seen} (another product of the file has it)`;
    const skipped = `not read: its product (line ${draft.line}) has a SKU that another product has`;
    errors.push(...draft.lines.map((line) => ({ line, sku: draft.sku, reason: line === draft.line ? reason : skipped })));
    return null;
  }

  private flush(): ProductEvent[] {
    const errors = this.errors;
    let draft: ProductDraft | null = null;
    if (this.rows.length > 0) {
      const built = this.format.build(this.rows);
      errors.push(...built.errors);
      draft = built.draft;
      if (draft) draft = this.withoutDuplicateVariants(draft, errors);
      if (draft) draft = this.withoutDuplicateSku(draft, errors);
    }
    errors.sort((a, b) => a.line - b.line);
    const lastLine = this.lastLine;
    this.rows = [];
    this.errors = [];
    this.failed = null;
    const events: ProductEvent[] = errors.length > 0 ? [{ kind: 'errors', errors, lastLine }] : [];
    if (draft) events.push({ kind: 'draft', draft, lastLine });
    return events;
  }
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
  for await (const record of records(input)) {
    if (!grouper) {
      if ('broken' in record) throw new CsvFileError(`the header (line ${record.line}) cannot be read: ${record.broken}`);
      const header = openHeader(record.row.cells, record.row.line, options.format);
      grouper = new ProductGrouper(header.rowFormat);
      yield { kind: 'header', format: header.format, columns: header.columns };
      continue;
    }
    const events = 'broken' in record ? grouper.broken(record.line, record.endLine, record.broken) : grouper.row(record.row);
    for (const event of events) if (event.lastLine > fromLine) yield event;
  }
  if (!grouper) throw new CsvFileError('the file is empty');
  for (const event of grouper.end()) if (event.lastLine > fromLine) yield event;
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
