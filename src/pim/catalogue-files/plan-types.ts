// What a product's import plan is made of (import-plan.ts builds it, import.service.ts writes it).
import type { ProductDraft, ProductFields } from '../../catalogue-csv/draft.js';
import type { AttributeDefinition } from '../attributes/attribute.repository.js';
import type { CategoryTree, ProductSnapshot, VariantSnapshot } from './catalogue-snapshot.js';
import type { KeyColumn } from './catalogue.repository.js';

export type Outcome = 'created' | 'updated' | 'unchanged';

export interface PlanContext {
  /** What a file's products are matched by: our format's SKU, Shopify's Handle (the slug). */
  keyColumn: KeyColumn;
  definitions: AttributeDefinition[];
  /** Storefront metafield (`ns.key`) → the code of the attribute mapped to it. */
  metafieldCodes: Map<string, string>;
  /** Warehouse code → id. */
  warehouses: Map<string, number>;
  tree: CategoryTree;
  /** The stored products of the batch, by key. */
  existing: Map<string, ProductSnapshot>;
  /** Variant SKU → the key of the product holding it, stored or earlier in this batch. */
  variantOwners: Map<string, string>;
  /** EAN (every GTIN spelling), slug and product SKU → the key of the product holding it, stored or earlier in this batch. */
  eanHolders: Map<string, string>;
  slugHolders: Map<string, string>;
  skuHolders: Map<string, string>;
  /** The currency of a new product the file names none for (the organization's default, else EUR). */
  defaultCurrency: string;
  /** The channels an active product gets when the file names none: `web`, when the organization has it. */
  defaultChannels: string[];
}

/** The product row as it will be, in names (brand, supplier), not ids; categories apart. */
export interface TargetProduct extends Omit<ProductFields, 'categories' | 'slug'> {
  /** null: a SKU made when written, from `skuBase` (free among the stored ones and this batch's). */
  sku: string | null;
  skuBase: string;
  sku_generated: boolean;
  /** null: a new product without a slug in the file (generated from the name when written). */
  slug: string | null;
  attributes: Record<string, unknown>;
}

export interface TargetVariant extends Omit<VariantSnapshot, 'id' | 'sku'> {
  /** The stored variant it overwrites; null: a new one. */
  id: number | null;
  /** null: a SKU made when written, from `skuBase`. */
  sku: string | null;
  skuBase: string;
  line: number;
  outcome: Outcome;
}

export interface ProductPlan {
  draft: ProductDraft;
  /** The product's key (its SKU in our format, its Handle in Shopify's): how rows and errors name it. */
  key: string;
  existingId: number | null;
  target: TargetProduct;
  productChanged: boolean;
  /** Category paths to assign, when they change. */
  categories: string[][] | null;
  /** Stock by warehouse id, the levels that change. */
  stock: { warehouseId: number; quantity: number }[];
  translations: { locale: string; name: string | null; description: string | null; short_description: string | null }[];
  /** Variants to write (new or changed). */
  variants: TargetVariant[];
  /** Image URLs the product does not have yet, with their position in the file's list and their alt text. */
  newImages: { url: string; position: number; alt: string | null }[];
  /** Images the product has whose alt text the file changes. */
  imageAlts: { url: string; alt: string | null }[];
  /** URLs whose download failed in an earlier import: tried again with this import's downloads (no change by itself). */
  pendingImages: string[];
  /** Every row of the product that was not refused: its outcome. */
  outcomes: Map<number, Outcome>;
  /** The product's outcome: created, updated (itself or any of its variants) or unchanged. */
  productOutcome: Outcome;
  /** Each variant row's outcome. */
  variantOutcomes: Outcome[];
  /** Anything to write at all. */
  changed: boolean;
}
