// Every field the bridge writes to a Shopify product, in one table (its rows in product-field-ownership.ts and
// variant-field-ownership.ts): where its value comes from in the PIM, the input that writes it (productSet unless said
// otherwise), the selection that reads it back, who owns it, what a push does when the PIM has no value, and how a dry
// run (product-diff.ts previewChanges, fed by product-preview.ts's ProductPreviewRead) and a drift report
// (product-diff.ts driftChanges, fed by the catalogue read's CatalogueProducts) compare it (field-comparison.ts). The
// mapper (variant-inputs.ts) takes the create defaults from it; docs/shopify-fidelity.md's "Field ownership" table is
// generated from it (fidelityTable), and test/field-ownership.test.ts checks both that table and that the two reads
// select every compared field's `read` path.
//
// Ownership, in short: the PIM owns what it has a value for; a field the PIM leaves empty (null: "not set in the PIM") is
// left out of the productSet, so the merchant's value in the shop stays ("For all other field types: Updates only the
// included fields. Any omitted fields will remain unchanged", https://shopify.dev/docs/api/admin-graphql/latest/mutations/productSet).
// Lists are replaced by productSet ("deletes existing entries that aren't included in the mutation's input", same page),
// so the merchant's entries are read first and sent back: tags, metafields, collections and media.
import type { OwnedField } from './owned-field.js';
import { PRODUCT_FIELD_OWNERSHIP } from './product-field-ownership.js';
import { VARIANT_FIELD_OWNERSHIP } from './variant-field-ownership.js';

/** The table: the product's rows (product-field-ownership.ts), then each variant's (variant-field-ownership.ts). */
export const FIELD_OWNERSHIP: readonly OwnedField[] = [...PRODUCT_FIELD_OWNERSHIP, ...VARIANT_FIELD_OWNERSHIP];

/** On create, when the PIM has no value: what the bridge sends for a variant field (FIELD_OWNERSHIP's createDefault). */
export function createDefault<T>(key: string): T {
  const row = FIELD_OWNERSHIP.find((f) => f.level === 'variant' && f.key === key);
  if (!row || row.createDefault === undefined) throw new Error(`no create default for variant field ${key}`);
  return row.createDefault as T;
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** docs/shopify-fidelity.md's "Field ownership" table, generated from FIELD_OWNERSHIP. */
export function fidelityTable(): string {
  const lines = [
    '| field | PIM source | written by | read back | owner | PIM has no value | dry run | drift | test |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of FIELD_OWNERSHIP) {
    const name = f.level === 'variant' ? `variant \`${f.key}\`` : `\`${f.key}\``;
    lines.push(
      `| ${name} | ${cell(f.pim)} | ${cell(f.input)} | \`${cell(f.read)}\` | ${f.owner} | ${cell(f.unset)} | ${f.dryRun} | ${f.drift} | \`${f.test}\` |`,
    );
  }
  return lines.join('\n');
}
