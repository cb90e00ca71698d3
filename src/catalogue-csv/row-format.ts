// What a CSV format plugs into the reader (csv-reader.ts): the rows it is given and how it groups and builds them. On
// its own so that the formats (ours-reader.ts, shopify-reader.ts) and the reader that calls them do not import each other.
import type { ProductDraft, RowError } from './draft.js';

/** One CSV record: its cells (as in the file, untrimmed), its first and last line. */
export interface CsvRow {
  line: number;
  endLine: number;
  cells: string[];
}

/** What a format does with its rows: which product a row belongs to, and a product's rows into a draft. */
export interface RowFormat {
  /** What the grouping key is called in messages: "product SKU", "Handle". */
  keyName: string;
  /**
   * Whether a SKU the file gives must be unique in it (ours: SKUs are the keys). Shopify's files may repeat one; the
   * importer gives the later products and variants a SKU of their own.
   */
  uniqueSkus: boolean;
  /** The row's product key; '' when the row continues the product above. */
  productKey(cells: string[]): string;
  /** A product's consecutive rows (the first has the key) into a draft and the errors of rows left out. */
  build(rows: CsvRow[]): { draft: ProductDraft | null; errors: RowError[] };
}
