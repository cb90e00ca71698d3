// Category rules: a tree per organization without cycles, siblings numbered 0..n-1 by position, at most MAX_LEVEL deep.
// Every write takes the organization's category lock first, so concurrent moves cannot interleave their checks and
// renumbering. A change to a product's category assignments (assign, delete, rename) moves the product's updated_at
// in the same transaction, so delta syncs see it.
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { MAX_INT } from '../pim.schemas.js';
import type { ProductRepository } from '../products/product.repository.js';
import type { CategoryFragment, CategoryRef, CategoryRepository } from './category.repository.js';
import {
  MAX_LEVEL,
  type CategoryAssignInput,
  type CategoryCreateInput,
  type CategoryMoveInput,
  type CategoryProductsQueryInput,
  type CategoryUpdateInput,
  type CategoryView,
} from './category.schemas.js';

/** A `data` value already serialized as JSON (the whole tree: built as text, it costs a fraction of the objects). */
export class JsonText {
  constructor(readonly text: string) {}
}

export class CategoryService {
  constructor(
    private readonly db: Db,
    private readonly categories: CategoryRepository,
    private readonly products: ProductRepository,
  ) {}

  /** All categories (no `parentId`), or the children of one (`'0'` or `'null'`: the roots). */
  async list(organizationId: number, parentId?: string): Promise<{ categories: CategoryView[]; total: number } | JsonText> {
    if (parentId === undefined) return renderCategories(await this.categories.fragments(organizationId), 'list');
    const parent = parentId === 'null' || parentId === '0' ? null : Number(parentId);
    if (parent !== null && parent > MAX_INT) throw badRequest(`query parameter 'parent_id' must be a category id, or 0 or null for the root categories`);
    const categories = await this.categories.childrenOf(organizationId, parent);
    return { categories, total: categories.length };
  }

  /** The whole tree, nested, as JSON of the CategoryTree schema. */
  async tree(organizationId: number): Promise<JsonText> {
    return renderCategories(await this.categories.fragments(organizationId), 'tree');
  }

  async get(organizationId: number, id: number): Promise<CategoryView> {
    const category = await this.categories.find(organizationId, id);
    if (!category) throw notFound(`Category ${id} not found`);
    return category;
  }

  async children(organizationId: number, id: number): Promise<{ categories: CategoryView[]; total: number }> {
    await this.get(organizationId, id);
    const categories = await this.categories.childrenOf(organizationId, id);
    return { categories, total: categories.length };
  }

  /** The category's products (by id), paginated exactly as the product list. */
  async listProducts(organizationId: number, id: number, q: CategoryProductsQueryInput) {
    if (!(await this.categories.ref(organizationId, id))) throw notFound(`Category ${id} not found`);
    const { products, total } = await this.products.list(
      organizationId,
      { categoryId: id },
      { limit: q.limit, offset: (q.page - 1) * q.limit },
      q.locale ?? null,
    );
    return {
      products,
      pagination: { current_page: q.page, total_pages: Math.ceil(total / q.limit), total_items: total, items_per_page: q.limit },
    };
  }

  /** Appended as the last child of its parent (or the last root). */
  async create(organizationId: number, input: CategoryCreateInput): Promise<CategoryView> {
    const id = await this.write(organizationId, async (repo) => {
      const parentId = input.parent_id ?? null;
      if (parentId !== null) await this.checkParent(repo, organizationId, parentId, null);
      const siblings = await repo.siblingIds(organizationId, parentId);
      await repo.renumber(organizationId, siblings);
      return repo.insert(organizationId, { name: input.name, description: input.description ?? null, parentId, position: siblings.length });
    });
    return this.get(organizationId, id);
  }

  /** Partial: only the fields sent change. A new parent appends the category to its children. */
  async update(organizationId: number, id: number, input: CategoryUpdateInput): Promise<CategoryView> {
    await this.write(organizationId, async (repo) => {
      const current = await this.mustExist(repo, organizationId, id);
      const reparent = input.parent_id !== undefined && input.parent_id !== current.parent_id;
      let position: number | undefined;
      if (reparent) {
        const parentId = input.parent_id ?? null;
        if (parentId !== null) await this.checkParent(repo, organizationId, parentId, current);
        const newSiblings = await repo.siblingIds(organizationId, parentId);
        await repo.renumber(organizationId, newSiblings);
        position = newSiblings.length;
      }
      await repo.update(organizationId, id, {
        name: input.name,
        description: input.description,
        parentId: reparent ? (input.parent_id ?? null) : undefined,
        position,
      });
      if (reparent) await repo.renumber(organizationId, await repo.siblingIds(organizationId, current.parent_id));
      // The name shows in each assigned product's `categories`.
      if (input.name !== undefined && input.name !== current.name) await repo.touchProductsOf(id);
    });
    return this.get(organizationId, id);
  }

  /** Moves under `parent_id` (null: to the root) at `position` (0-based; absent or past the end appends). */
  async move(organizationId: number, id: number, input: CategoryMoveInput): Promise<CategoryView> {
    await this.write(organizationId, async (repo) => {
      const current = await this.mustExist(repo, organizationId, id);
      const parentId = input.parent_id;
      if (parentId !== null) await this.checkParent(repo, organizationId, parentId, current);
      const place = (list: number[]) => list.splice(Math.min(input.position ?? list.length, list.length), 0, id);
      const oldSiblings = (await repo.siblingIds(organizationId, current.parent_id)).filter((x) => x !== id);
      if (parentId === current.parent_id) {
        place(oldSiblings);
        await repo.renumber(organizationId, oldSiblings);
      } else {
        const newSiblings = await repo.siblingIds(organizationId, parentId);
        place(newSiblings);
        await repo.update(organizationId, id, { parentId });
        await repo.renumber(organizationId, oldSiblings);
        await repo.renumber(organizationId, newSiblings);
      }
    });
    return this.get(organizationId, id);
  }

  /** Refused while the category has children; unassigns its products. */
  async delete(organizationId: number, id: number) {
    return this.write(organizationId, async (repo) => {
      const current = await this.mustExist(repo, organizationId, id);
      const children = await repo.countChildren(organizationId, id);
      if (children > 0) {
        throw badRequest(
          `Category ${id} has ${children} child ${children === 1 ? 'category' : 'categories'}: move or delete ${children === 1 ? 'it' : 'them'} first`,
        );
      }
      const unassigned = await repo.touchProductsOf(id);
      await repo.delete(organizationId, id);
      await repo.renumber(organizationId, await repo.siblingIds(organizationId, current.parent_id));
      return { id, deleted: true, unassigned_products: unassigned };
    });
  }

  /** All or nothing: one unknown or foreign product id assigns none. Products already assigned are fine. */
  async assign(organizationId: number, id: number, input: CategoryAssignInput) {
    return this.write(organizationId, async (repo) => {
      await this.mustExist(repo, organizationId, id);
      const unknown = await repo.unknownProducts(organizationId, input.product_ids);
      if (unknown.length > 0) {
        throw badRequest(`field 'product_ids': ${unknown.length === 1 ? 'product' : 'products'} ${unknown.join(', ')} not found; nothing was assigned`);
      }
      const assigned = await repo.assign(id, input.product_ids);
      return { category_id: id, product_ids: input.product_ids, assigned, product_count: await repo.productCount(id) };
    });
  }

  /** One transaction holding the organization's category lock. */
  private write<T>(organizationId: number, change: (repo: CategoryRepository) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const repo = this.categories.with(tx);
      await repo.lock(organizationId);
      return change(repo);
    });
  }

  private async mustExist(repo: CategoryRepository, organizationId: number, id: number): Promise<CategoryRef> {
    const current = await repo.ref(organizationId, id);
    if (!current) throw notFound(`Category ${id} not found`);
    return current;
  }

  /** The new parent exists in the organization, is not `moving` or below it, and keeps the subtree within MAX_LEVEL. */
  private async checkParent(repo: CategoryRepository, organizationId: number, parentId: number, moving: CategoryRef | null): Promise<void> {
    if (!(await repo.ref(organizationId, parentId))) throw badRequest(`field 'parent_id': category ${parentId} not found`);
    if (moving && parentId === moving.id) throw badRequest(`field 'parent_id': category ${moving.id} cannot be its own parent`);
    const path = await repo.pathOf(parentId);
    if (moving && path.includes(moving.id)) {
      throw badRequest(`field 'parent_id': category ${parentId} is a descendant of category ${moving.id}; a category cannot move under itself`);
    }
    const level = path.length + (moving ? await repo.subtreeHeight(organizationId, moving.id) : 0);
    if (level > MAX_LEVEL) throw badRequest(`field 'parent_id': the tree would be deeper than ${MAX_LEVEL + 1} levels`);
  }
}

/**
 * Every category as JSON, from PostgreSQL's fragments in O(n): the rows come ordered by (parent, position, id), so
 * linking each row to its parent's last child keeps siblings in order; one walk from the roots gives level, path
 * and children_count. `tree`: the roots with their children nested; `list`: flat, in the rows' order. The text is
 * built by concatenation (V8 joins the pieces once, when it is written out). Rows not reachable from a root (there
 * are none while the writes keep the tree acyclic) are left out.
 */
function renderCategories(rows: CategoryFragment[], shape: 'tree' | 'list'): JsonText {
  const n = rows.length;
  const indexOf = new Map<number, number>();
  for (let i = 0; i < n; i++) indexOf.set(rows[i].id, i);
  const firstChild = new Int32Array(n).fill(-1);
  const lastChild = new Int32Array(n).fill(-1);
  const nextSibling = new Int32Array(n).fill(-1);
  const childCount = new Int32Array(n);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const parentId = rows[i].parent_id;
    const p = parentId === null ? undefined : indexOf.get(parentId);
    if (parentId === null) roots.push(i);
    else if (p !== undefined) {
      if (firstChild[p] < 0) firstChild[p] = i;
      else nextSibling[lastChild[p]] = i;
      lastChild[p] = i;
      childCount[p]++;
    }
  }
  const record = (i: number, level: number, path: string) =>
    `{${rows[i].head},"level":${level},"path":[${path}],"children_count":${childCount[i]},${rows[i].tail}`;
  let json = '{"categories":[';
  if (shape === 'tree') {
    const emit = (i: number, level: number, path: string) => {
      json += `${record(i, level, path)},"children":[`;
      for (let c = firstChild[i]; c >= 0; c = nextSibling[c]) {
        if (c !== firstChild[i]) json += ',';
        emit(c, level + 1, `${path},${rows[c].id}`);
      }
      json += ']}';
    };
    roots.forEach((r, k) => {
      if (k > 0) json += ',';
      emit(r, 0, String(rows[r].id));
    });
  } else {
    const levels = new Int32Array(n).fill(-1);
    const paths: string[] = new Array(n);
    const stack = [...roots];
    for (const r of roots) {
      levels[r] = 0;
      paths[r] = String(rows[r].id);
    }
    while (stack.length > 0) {
      const i = stack.pop()!;
      for (let c = firstChild[i]; c >= 0; c = nextSibling[c]) {
        levels[c] = levels[i] + 1;
        paths[c] = `${paths[i]},${rows[c].id}`;
        stack.push(c);
      }
    }
    let first = true;
    for (let i = 0; i < n; i++) {
      if (levels[i] < 0) continue;
      json += `${(first ? '' : ',') + record(i, levels[i], paths[i])}}`;
      first = false;
    }
  }
  return new JsonText(`${json}],"total":${n}}`);
}
