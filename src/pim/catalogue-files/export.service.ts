// The catalogue as a CSV file, streamed: keyset pages of whole products, each written as the format's rows. Memory
// stays at one page whatever the size of the catalogue.
import { csvHeader, draftRows, stringifyRows } from '../../catalogue-csv/csv-writer.js';
import type { CsvFormat } from '../../catalogue-csv/draft.js';
import { GcNudge } from '../../lib/gc-nudge.js';
import { CategoryTree, snapshotToDraft } from './catalogue-snapshot.js';
import type { CatalogueRepository, ImportFilters } from './catalogue.repository.js';

const PAGE = 500;
/** As for imports (lib/gc-nudge.ts): a long export's pages are garbage as soon as they are written. */
const GC_EVERY_PRODUCTS = 5_000;

export class ExportService {
  constructor(private readonly catalogue: CatalogueRepository) {}

  async *productsCsv(organizationId: number, format: CsvFormat, filters: ImportFilters): AsyncGenerator<string> {
    const [definitions, warehouses, columns, categories, metafields] = await Promise.all([
      this.catalogue.attributeDefinitions(organizationId),
      this.catalogue.warehouses(organizationId),
      this.catalogue.exportColumns(organizationId),
      this.catalogue.categories(organizationId),
      this.catalogue.metafieldAttributes(organizationId),
    ]);
    const tree = new CategoryTree(categories);
    const header = csvHeader(format, {
      attributeCodes: definitions.map((d) => d.code),
      warehouseCodes: warehouses.map((w) => w.code),
      locales: columns.locales,
      optionNames: columns.optionNames,
      metafields,
    });
    // Attribute code → its metafield: Shopify's metafield columns.
    const metafieldOf = new Map(metafields.map((m) => [m.code, m.metafield]));
    yield stringifyRows([header]);
    const gc = new GcNudge(GC_EVERY_PRODUCTS);
    for (let after = 0; ; ) {
      const page = await this.catalogue.snapshotsAfter(organizationId, filters, after, PAGE);
      if (page.length === 0) return;
      yield stringifyRows(page.flatMap((p) => draftRows(format, snapshotToDraft(p, tree, metafieldOf), header)));
      after = page[page.length - 1].id;
      gc.add(page.length);
    }
  }
}
