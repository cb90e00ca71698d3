// How an adoption makes PIM products of the shop's unmatched products: through the PIM's catalogue import over HTTP
// (POST /api/imports with a CSV file, then GET /api/imports/{id} until it ends) — one upload for all of them, the PIM's
// own import rules applied, rather than one API call per product and variant. The file is written from the drafts by
// a CSV encoder of catalogue-csv (the format the PIM reads); the adoption service only sees this interface.
import { csvHeader, draftRows, headerContextOf, stringifyRows } from '../../catalogue-csv/csv-writer.js';
import type { CsvFormat, ProductDraft } from '../../catalogue-csv/draft.js';
import type { PimClient, PimImport } from '../pim/pim-client.js';

export interface PimConnection {
  baseUrl: string;
  apiKey: string;
}

export interface UnmatchedImporter {
  /** Starts the import of these products into the integration's PIM; the id to follow it by. */
  start(conn: PimConnection, drafts: ProductDraft[]): Promise<string>;
  /** Where the import stands (PimReadError when it cannot be asked). */
  state(conn: PimConnection, importId: string): Promise<PimImport>;
}

/** Drafts → a catalogue file the PIM imports (catalogue-csv's writers: a header, rows per draft, CSV text). */
export interface CatalogueEncoder {
  format: CsvFormat;
  encode(drafts: ProductDraft[]): Buffer;
}

/**
 * catalogue-csv's writer as an encoder. The adoption writes our format: the drafts follow the Shopify CSV import's
 * rules (shop-drafts.ts) either way, but Shopify's product CSV has no currency column, so its products would take the
 * PIM's default currency, and the next push would refuse every one of them in a shop whose currency differs.
 */
export function catalogueCsvEncoder(format: CsvFormat): CatalogueEncoder {
  return {
    format,
    encode(drafts) {
      const header = csvHeader(format, headerContextOf(drafts));
      return Buffer.from(stringifyRows([header, ...drafts.flatMap((d) => draftRows(format, d, header))]), 'utf8');
    },
  };
}

/** The import through the PIM's catalogue-file API. */
export class PimCsvImporter implements UnmatchedImporter {
  constructor(
    private readonly pim: Pick<PimClient, 'startImport' | 'importState'>,
    private readonly encoder: CatalogueEncoder,
  ) {}

  async start(conn: PimConnection, drafts: ProductDraft[]): Promise<string> {
    const content = this.encoder.encode(drafts);
    const started = await this.pim.startImport(conn, { format: this.encoder.format, filename: 'shop-adoption.csv', content });
    return started.id;
  }

  state(conn: PimConnection, importId: string): Promise<PimImport> {
    return this.pim.importState(conn, importId);
  }
}
