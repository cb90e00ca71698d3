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
// and then followed by text, is reported on the row's first line and reading resumes on the next line. Memory stays
// bounded: a cell may hold MAX_CELL_CHARS (1 Mi, far beyond the PIM's 65,535-character descriptions), a row
// MAX_ROW_CHARS; a row over either is refused as a whole and reading goes on after its end, its text dropped as it is
// scanned (RecordSplitter). The rows it passes are well-formed, and csv-parse turns them into cells.
import { parse } from 'csv-parse/sync';
import { append } from '../lib/arrays.js';
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

/** The longest row whose text the reader keeps; a row beyond it is refused (and scanned to its end, not kept). */
export const MAX_ROW_CHARS = 4 * 1024 * 1024;
/** The longest cell: a row with a longer one is refused (a 48 MB description is a mistake, not a product). */
export const MAX_CELL_CHARS = 1024 * 1024;

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

/** A record too long to be read: the cell that is (its 0-based index and length), else the whole row; the row's start. */
export interface LongRecord {
  cell: number | null;
  chars: number;
  /** The row's text before the long cell (whole cells, comma-separated), to name its product; '' when too long itself. */
  head: string;
}

type Split = { text: string; line: number; endLine: number } | { broken: string; line: number; endLine: number; long?: LongRecord };

const STRAY_QUOTE = 'a quote (") inside a cell that does not start with one; put the whole cell in quotes and write the quote twice ("")';
const NOT_CLOSED = 'a quoted cell is never closed (a missing closing quote "?); this line was skipped and reading went on with the next';
const TEXT_AFTER_QUOTE =
  'a quoted cell is not closed properly: a quote (") in it is followed by more text (a missing closing quote, or a quote inside not written twice ""); this line was skipped';
const HEAD_CHARS = 4096;

const count = (n: number) => n.toLocaleString('en-US');
/** A limit in characters: `4 Mi` when a whole number of Mi, else the number. */
const limit = (chars: number) => (chars >= 1024 * 1024 && chars % (1024 * 1024) === 0 ? `${chars / 1024 / 1024} Mi` : count(chars));

/**
 * Cuts text into records with their lines (see the top of the file). Push text, then end().
 *
 * Limits, so memory stays bounded whatever the file: a cell holds at most `maxCellChars`, a row `maxRowChars`. A row
 * over either limit is refused as a whole, reported once (its first line, the lines it spans and, for a cell, which
 * one and how long); the reader goes on after the row's end, so the rows after it are read as usual. Up to
 * `maxRowChars` the row's text is kept, so a quote found to be broken (never closed, or closed and followed by text)
 * is still reported on the row's first line and reading goes on with its second line, as for any broken quote. Past
 * `maxRowChars` the text is dropped as it is scanned (a 48 MB cell costs a few MB of memory): should its quote then
 * turn out broken, the lines scanned so far are reported as skipped and reading goes on after the broken quote's line.
 */
export class RecordSplitter {
  private buf = '';
  /** Characters dropped before buf[0]: buf[i] is character `base + i` of the text. */
  private base = 0;
  private start = 0; // first character of the current record (while its text is kept)
  private pos = 0; // where scanning goes on
  private cellStart = 0; // first character of the current cell, as an offset in the whole text
  private cell = 0; // the current cell's index in its record
  private line = 1; // line of `start`
  private breaks = 0; // line breaks in the current record before `pos`
  private inQuotes = false;
  private stray = false;
  private skipLine = false; // drop the rest of a broken record's line
  private long: LongRecord | null = null; // the current record is over a limit
  private dropping = false; // the current record's text is no longer kept

  constructor(
    private readonly maxRowChars = MAX_ROW_CHARS,
    private readonly maxCellChars = Math.min(MAX_CELL_CHARS, maxRowChars),
  ) {}

  push(text: string): Split[] {
    const keep = this.dropping ? this.pos : this.start;
    this.buf = this.buf.slice(keep) + text;
    this.base += keep;
    this.pos -= keep;
    this.start = this.dropping ? 0 : this.start - keep;
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
          this.restart(found ? found.index : len);
          return out;
        }
        const next = buf[found.index] === '\r' && buf[found.index + 1] === '\n' ? found.index + 2 : found.index + 1;
        this.line += 1;
        this.restart(next);
        this.skipLine = false;
        continue;
      }
      if (this.inQuotes) {
        const q = buf.indexOf('"', this.pos);
        if (q === -1) {
          const end = !final && buf.endsWith('\r') ? len - 1 : len;
          this.breaks += countBreaks(buf, this.pos, end);
          this.pos = end;
          if (final) {
            this.broken(out, NOT_CLOSED);
            continue;
          }
          this.checkLimits();
          return out;
        }
        this.breaks += countBreaks(buf, this.pos, q);
        this.pos = q;
        if (buf[q + 1] === '"') {
          this.pos = q + 2; // an escaped quote
          continue;
        }
        let after = q + 1;
        while (after < len && (buf[after] === ' ' || buf[after] === '\t')) after++;
        if (after >= len && !final) {
          this.checkLimits();
          return out;
        }
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
          if (this.start < len || this.long) this.emit(out, len, len);
          return out;
        }
        this.checkLimits();
        return out;
      }
      const i = m.index;
      const c = buf[i];
      if (c === ',') {
        this.cellEnds(i);
        this.pos = i + 1;
        this.cellStart = this.base + i + 1;
        this.cell++;
      } else if (c === '"') {
        const from = this.cellStart - this.base;
        if (from >= 0 && /^[ \t]*$/.test(buf.slice(from, i))) this.inQuotes = true;
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

  /** The buffer is scanned up to `pos` and more text is needed: are the cell or the row over their limits? */
  private checkLimits(): void {
    this.cellEnds(this.pos);
    if (!this.dropping && this.pos - this.start > this.maxRowChars) {
      this.long ??= { cell: null, chars: 0, head: '' };
      this.dropping = true;
    }
  }

  /** The current cell reaches (at least) `end`: past the limit, the record is refused for it. */
  private cellEnds(end: number): void {
    const chars = this.base + end - this.cellStart;
    if (chars <= this.maxCellChars) return;
    if (this.long === null || this.long.cell === null || this.long.cell === this.cell) {
      const from = this.cellStart - this.base;
      const head = this.long?.head ?? (from >= this.start && from - this.start <= HEAD_CHARS ? this.buf.slice(this.start, from) : '');
      this.long = { cell: this.cell, chars, head };
    }
  }

  /** A record ends at `end` (its line break, if any, ends at `next`). */
  private emit(out: Split[], end: number, next: number): void {
    this.cellEnds(end);
    const record = { line: this.line, endLine: this.line + this.breaks };
    if (this.long) out.push({ broken: tooLong(this.long, record.line, record.endLine, this.maxCellChars, this.maxRowChars), ...record, long: this.long });
    else if (this.stray) out.push({ broken: STRAY_QUOTE, ...record });
    else out.push({ text: this.buf.slice(this.start, end), ...record });
    this.line = record.endLine + 1;
    this.restart(next);
  }

  /** The next record starts at `at`. */
  private restart(at: number): void {
    this.start = this.pos = at;
    this.cellStart = this.base + at;
    this.cell = this.breaks = 0;
    this.inQuotes = this.stray = this.dropping = false;
    this.long = null;
  }

  /**
   * The record's quoting is broken at `pos`. While its text is kept: report its first line and go on with its second.
   * Once dropped: report the lines read so far and go on after the current one.
   */
  private broken(out: Split[], reason: string): void {
    if (!this.dropping) {
      out.push({ broken: reason, line: this.line, endLine: this.line });
      this.restart(this.start);
    } else {
      const endLine = this.line + this.breaks;
      const what =
        reason === NOT_CLOSED
          ? `lines ${count(this.line)} to ${count(endLine)} (the end of the file) were not read`
          : `lines ${count(this.line)} to ${count(endLine)} were skipped and reading went on with the next`;
      out.push({
        broken: `a quoted cell starting on line ${count(this.line)} runs over ${limit(this.maxRowChars)} characters and is ${reason === NOT_CLOSED ? 'never closed' : 'not closed properly (a quote in it is followed by more text)'}; ${what}`,
        line: this.line,
        endLine,
      });
      this.line = endLine;
      this.restart(this.pos);
    }
    this.skipLine = true;
  }
}

/** Why a row over a limit is refused; readDrafts names the column (it knows the header). */
function tooLong(long: LongRecord, line: number, endLine: number, maxCell: number, maxRow: number, column?: string): string {
  const lines = endLine > line ? `lines ${count(line)} to ${count(endLine)}` : `line ${count(line)}`;
  if (long.cell === null) return `the row is longer than ${limit(maxRow)} characters; it was not imported (${lines})`;
  const which = column ? `column '${column}'` : `cell ${long.cell + 1}`;
  return `${which} holds ${count(long.chars)} characters, more than the ${limit(maxCell)}${limit(maxCell) === count(maxCell) ? '' : ` (${count(maxCell)})`} a cell may hold; the row was not imported (${lines})`;
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
// Rows → products

type ProductEvent = Exclude<ReadEvent, { kind: 'header' }>;

/** Errors handed on at once while no product is open (ProductGrouper.spill). */
const SPILL_ERRORS = 1_000;

/** Groups consecutive rows into products and checks what spans products: consecutiveness, duplicate variant SKUs. */
class ProductGrouper {
  private key = '';
  private rows: CsvRow[] = [];
  private errors: RowError[] = [];
  private failed: string | null = null;
  /** A row of the current product (its key known) that could not be read: the product is refused whole. */
  private brokenRow: number | null = null;
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
      return this.spill();
    }
    this.afterBroken = null;
    if (key === this.key) {
      if (this.failed) this.error({ line: row.line, sku: key, reason: this.failed }, row.endLine);
      else this.add(row);
      return this.spill();
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

  /**
   * A row that could not be read. Its key, when known (a row too long to read), places it: a new key starts that
   * product, which then fails whole (as for any error on a product's first row); the current product's key or an empty
   * one fails that row of the current product. Without a key (null) the rows after it cannot be placed until the next key.
   */
  broken(line: number, endLine: number, reason: string, key: string | null = null): ProductEvent[] {
    if (key === '' && this.afterBroken === null) key = this.key;
    if (!key || this.productLines.has(key)) {
      this.error({ line, sku: key || null, reason }, endLine);
      if (key !== this.key) this.afterBroken = line;
      else this.brokenRow ??= line;
      return this.spill();
    }
    const done = this.flush();
    this.key = key;
    this.productLines.set(key, line);
    this.afterBroken = null;
    this.failed = `not read: the product's first row (line ${line}) has errors`;
    this.error({ line, sku: key, reason }, endLine);
    return done;
  }

  end(): ProductEvent[] {
    return this.flush();
  }

  /**
   * Errors pile up while no product is open (rows after a broken one, the rows of a refused product): past
   * SPILL_ERRORS they are handed on at once, so a file of a million bad lines is not held in memory. A product with
   * rows keeps its errors until it is built (its rows are held anyway).
   */
  private spill(): ProductEvent[] {
    if (this.rows.length > 0 || this.errors.length < SPILL_ERRORS) return [];
    const errors = this.errors;
    this.errors = [];
    return [{ kind: 'errors', errors, lastLine: this.lastLine }];
  }

  private add(row: CsvRow): void {
    this.rows.push(row);
    this.lastLine = Math.max(this.lastLine, row.endLine);
  }

  private error(error: RowError, endLine: number): void {
    this.errors.push(error);
    this.lastLine = Math.max(this.lastLine, endLine);
  }

  /** A product one of whose rows could not be read is not imported either (a product is imported whole or not at all). */
  private withoutBrokenRows(draft: ProductDraft, errors: RowError[]): ProductDraft | null {
    if (this.brokenRow === null) return draft;
    const reason = `not imported: a row of its product (line ${this.brokenRow}) could not be read`;
    append(
      errors,
      draft.lines.map((line) => ({ line, sku: this.key, reason })),
    );
    return null;
  }

  /** A variant SKU seen before refuses its product, every row of it (a product is imported whole or not at all). */
  private withoutDuplicateVariants(draft: ProductDraft, errors: RowError[]): ProductDraft | null {
    const reasons = new Map<number, string>();
    const within = new Map<string, number>();
    for (const v of draft.variants) {
      const seen = this.variantLines.get(v.sku) ?? within.get(v.sku);
      if (seen !== undefined) reasons.set(v.line, `variant SKU '${v.sku}' already appeared at line ${seen}`);
      else within.set(v.sku, v.line);
    }
    if (reasons.size > 0) {
      const lines = [...reasons.keys()];
      const skipped = `not imported: its product has a variant SKU that appeared before (line ${lines.join(', ')})`;
      append(
        errors,
        draft.lines.map((line) => ({ line, sku: this.key, reason: reasons.get(line) ?? skipped })),
      );
      return null;
    }
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
    append(
      errors,
      draft.lines.map((line) => ({ line, sku: draft.sku, reason: line === draft.line ? reason : skipped })),
    );
    return null;
  }

  private flush(): ProductEvent[] {
    const errors = this.errors;
    let draft: ProductDraft | null = null;
    if (this.rows.length > 0) {
      const built = this.format.build(this.rows);
      append(errors, built.errors);
      draft = built.draft;
      if (draft) draft = this.withoutBrokenRows(draft, errors);
      if (draft && this.format.uniqueSkus) draft = this.withoutDuplicateVariants(draft, errors);
      if (draft && this.format.uniqueSkus) draft = this.withoutDuplicateSku(draft, errors);
    }
    errors.sort((a, b) => a.line - b.line);
    const lastLine = this.lastLine;
    this.rows = [];
    this.errors = [];
    this.failed = null;
    this.brokenRow = null;
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
