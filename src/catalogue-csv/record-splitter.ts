// Text → records: a catalogue CSV's rows with their exact lines, for csv-parse to turn into cells (csv-reader.ts).
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

/** The longest row whose text the reader keeps; a row beyond it is refused (and scanned to its end, not kept). */
export const MAX_ROW_CHARS = 4 * 1024 * 1024;
/** The longest cell: a row with a longer one is refused (a 48 MB description is a mistake, not a product). */
export const MAX_CELL_CHARS = 1024 * 1024;

/** A record too long to be read: the cell that is (its 0-based index and length), else the whole row; the row's start. */
export interface LongRecord {
  cell: number | null;
  chars: number;
  /** The row's text before the long cell (whole cells, comma-separated), to name its product; '' when too long itself. */
  head: string;
}

export type Split = { text: string; line: number; endLine: number } | { broken: string; line: number; endLine: number; long?: LongRecord };

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
    // Each step scans on from `pos` and says whether to go on: false when it needs more text (or the text ended).
    let more = true;
    while (more) more = this.skipLine ? this.skipRestOfLine(final) : this.inQuotes ? this.scanQuoted(out, final) : this.scanUnquoted(out, final);
    return out;
  }

  /** Drops the rest of a broken record's line. */
  private skipRestOfLine(final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    const m = /[\r\n]/g;
    m.lastIndex = this.pos;
    const found = m.exec(buf);
    if (!found || (buf[found.index] === '\r' && found.index + 1 >= len && !final)) {
      // The line goes on in the next chunk (or the file ends): drop what is read of it.
      this.restart(found ? found.index : len);
      return false;
    }
    const next = buf[found.index] === '\r' && buf[found.index + 1] === '\n' ? found.index + 2 : found.index + 1;
    this.line += 1;
    this.restart(next);
    this.skipLine = false;
    return true;
  }

  /** Scans a quoted cell on to its closing quote. */
  private scanQuoted(out: Split[], final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    const q = buf.indexOf('"', this.pos);
    if (q === -1) {
      const end = !final && buf.endsWith('\r') ? len - 1 : len;
      this.breaks += countBreaks(buf, this.pos, end);
      this.pos = end;
      if (final) {
        this.broken(out, NOT_CLOSED);
        return true;
      }
      this.checkLimits();
      return false;
    }
    this.breaks += countBreaks(buf, this.pos, q);
    this.pos = q;
    if (buf[q + 1] === '"') {
      this.pos = q + 2; // an escaped quote
      return true;
    }
    let after = q + 1;
    while (after < len && (buf[after] === ' ' || buf[after] === '\t')) after++;
    if (after >= len && !final) {
      this.checkLimits();
      return false;
    }
    const c = buf[after];
    if (c === undefined || c === ',' || c === '\r' || c === '\n') {
      this.inQuotes = false;
      this.pos = after;
    } else this.broken(out, TEXT_AFTER_QUOTE);
    return true;
  }

  /** Scans on to the next comma, quote or line break outside quotes. */
  private scanUnquoted(out: Split[], final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    const special = /[",\r\n]/g;
    special.lastIndex = this.pos;
    const m = special.exec(buf);
    if (!m) {
      this.pos = len;
      if (final) {
        if (this.start < len || this.long) this.emit(out, len, len);
        return false;
      }
      this.checkLimits();
      return false;
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
        return false;
      }
      this.emit(out, i, buf[i + 1] === '\n' ? i + 2 : i + 1);
    }
    return true;
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
export function tooLong(long: LongRecord, line: number, endLine: number, maxCell: number, maxRow: number, column?: string): string {
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
