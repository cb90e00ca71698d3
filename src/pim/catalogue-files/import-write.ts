// A batch's plans written to the catalogue, inside the batch's transaction: the brands, suppliers and categories they
// name, the free slugs and SKUs of new products and variants, then products, categories, stock, translations,
// variants, image alts, and the images left to download.
import { slugify } from '../../lib/slug.js';
import type { CategoryTree } from './catalogue-snapshot.js';
import type { CatalogueRepository, ProductRow } from './catalogue.repository.js';
import type { ProductPlan } from './import-plan.js';
import type { ImportRepository, ImportRow } from './import.repository.js';
import type { Actor, HistoryRepository } from '../history/history.repository.js';

/** The repositories a batch writes through, bound to its transaction. */
export interface BatchRepositories {
  catalogue: CatalogueRepository;
  imports: ImportRepository;
  history: HistoryRepository;
}

export async function writePlans(repos: BatchRepositories, imp: ImportRow, plans: ProductPlan[], tree: CategoryTree): Promise<void> {
  const { catalogue, imports, history } = repos;
  const org = imp.organization_id;
  const changed = plans.filter((p) => p.changed);
  const rewritten = changed.filter((p) => p.productChanged);
  const brands = await catalogue.namedIds('brands', org, distinct(rewritten.map((p) => p.target.brand)));
  const suppliers = await catalogue.namedIds('suppliers', org, distinct(rewritten.map((p) => p.target.supplier)));
  // New products without a slug get one from their name, free among the stored ones and this batch's.
  const unslugged = rewritten.filter((p) => p.target.slug === null);
  const taken = new Set([
    ...(await catalogue.taken(org, 'products', 'slug', distinct(unslugged.map((p) => slugify(p.target.name))))),
    ...plans.flatMap((p) => (p.target.slug ? [p.target.slug] : [])),
  ]);
  const free = freeSlugs(taken);
  for (const p of unslugged) p.target.slug = free(slugify(p.target.name));
  // SKUs a Shopify file's product or variant needs and could not take: made from their base, free as slugs are.
  const unskued = rewritten.filter((p) => p.target.sku === null);
  const freeSku = freeSlugs(
    new Set([
      ...(await catalogue.taken(org, 'products', 'sku', distinct(unskued.map((p) => p.target.skuBase)))),
      ...plans.flatMap((p) => (p.target.sku ? [p.target.sku] : [])),
    ]),
  );
  for (const p of unskued) p.target.sku = freeSku(p.target.skuBase);
  const newVariants = changed.flatMap((p) => p.variants.filter((v) => v.sku === null));
  const freeVariantSku = freeSlugs(
    new Set([
      ...(await catalogue.taken(org, 'variants', 'sku', distinct(newVariants.map((v) => v.skuBase)))),
      ...changed.flatMap((p) => p.variants.flatMap((v) => (v.sku ? [v.sku] : []))),
    ]),
  );
  for (const v of newVariants) v.sku = freeVariantSku(v.skuBase);
  const rows: ProductRow[] = rewritten.map(({ existingId, target: { brand, supplier, slug, sku, skuBase: _base, ...t } }) => ({
    ...t,
    id: existingId,
    sku: sku!,
    slug: slug!,
    brand_id: brand === null ? null : brands.get(brand)!,
    supplier_id: supplier === null ? null : suppliers.get(supplier)!,
  }));
  // The history's "before" of the stored products the batch changes (their rows are locked already).
  const before = await history.snapshots(org, distinct(changed.map((p) => p.existingId)));
  const ids = await catalogue.upsertProducts(org, rows);
  const idOf = (p: ProductPlan) => p.existingId ?? ids.get(p.target.sku!)!;
  await catalogue.touch(changed.filter((p) => !p.productChanged).map(idOf));

  const assignments: { productId: number; categoryIds: number[] }[] = [];
  for (const p of changed.filter((c) => c.categories !== null)) {
    const categoryIds: number[] = [];
    for (const categoryPath of p.categories!) categoryIds.push(await categoryId(catalogue, org, tree, categoryPath));
    assignments.push({ productId: idOf(p), categoryIds: distinct(categoryIds) });
  }
  await catalogue.replaceCategories(assignments);
  await catalogue.setStock(changed.flatMap((p) => p.stock.map((s) => ({ productId: idOf(p), ...s }))));
  await catalogue.upsertTranslations(changed.flatMap((p) => p.translations.map((t) => ({ product_id: idOf(p), ...t }))));
  await catalogue.upsertVariants(
    org,
    changed.flatMap((p) => p.variants.map(({ line: _line, outcome: _outcome, skuBase: _base, sku, ...v }) => ({ ...v, sku: sku!, product_id: idOf(p) }))),
  );
  await catalogue.sumVariantStock(changed.map(idOf));
  await catalogue.setImageAlts(changed.flatMap((p) => p.imageAlts.map((a) => ({ productId: idOf(p), ...a }))));
  await history.record(
    org,
    changed.map((p) => ({ productId: idOf(p), before: p.existingId === null ? null : (before.get(p.existingId) ?? null) })),
    importActor(imp),
  );
  await imports.addImages(
    imp.id,
    changed.flatMap((p) => p.newImages.map((i) => ({ productId: idOf(p), url: i.url, position: i.position, altText: i.alt, line: p.draft.line, sku: p.key }))),
  );
  // Every product of the file, changed or not, has its pending images tried again.
  await imports.retryPendingImages(
    imp.id,
    plans.filter((p) => p.pendingImages.length > 0).map((p) => ({ productId: idOf(p), line: p.draft.line, sku: p.key })),
  );
}

/** The category at this path, created with its missing ancestors. */
async function categoryId(catalogue: CatalogueRepository, org: number, tree: CategoryTree, categoryPath: string[]): Promise<number> {
  let parentId: number | null = null;
  for (let depth = 1; depth <= categoryPath.length; depth++) {
    const prefix = categoryPath.slice(0, depth);
    let id = tree.idOf(prefix);
    if (id === undefined) {
      id = await catalogue.insertCategory(org, parentId, prefix[depth - 1]);
      tree.add(id, prefix);
    }
    parentId = id;
  }
  return parentId!;
}

/**
 * Hands out `base`, `base-2`, `base-3`, … not in `taken`, remembering per base where it stopped: a file of thousands of
 * products with the same name costs one pass, not one scan of the taken set per product.
 */
function freeSlugs(taken: Set<string>): (base: string) => string {
  const next = new Map<string, number>();
  return (base) => {
    let n = next.get(base) ?? 1;
    let slug = n === 1 ? base : `${base}-${n}`;
    while (taken.has(slug)) slug = `${base}-${++n}`;
    next.set(base, n + 1);
    taken.add(slug);
    return slug;
  };
}

/** The values once each, nulls left out. */
export const distinct = <T>(values: (T | null)[]): T[] => [...new Set(values.filter((v): v is T => v !== null))];

/** Who an import's writes are, in its products' history: the import (or adoption) with its file and its starter's key. */
export const importActor = (imp: ImportRow): Actor => ({ kind: imp.source, keyId: imp.started_by_key_id, label: imp.file_name });
