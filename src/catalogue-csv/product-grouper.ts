// Rows → products: consecutive rows with one key grouped into a product's draft (its row format builds it), with the
// checks that span products: consecutive rows, duplicate product and variant SKUs, a product with a row not read.
import { append } from '../lib/arrays.js';
import type { ProductDraft, RowError } from './draft.js';
import type { CsvRow, RowFormat } from './row-format.js';

/** What a product's rows give: its errors, then its draft (none when it is refused). */
export type ProductEvent = { kind: 'draft'; draft: ProductDraft; lastLine: number } | { kind: 'errors'; errors: RowError[]; lastLine: number };

/** Errors handed on at once while no product is open (ProductGrouper.spill). */
const SPILL_ERRORS = 1_000;

/** Groups consecutive rows into products and checks what spans products: consecutiveness, duplicate variant SKUs. */
export class ProductGrouper {
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
