// Category routes: the record, list/tree/children reads, create/update/move/delete with their tree rules (no cycles,
// siblings numbered 0..n-1), product assignment and the category's product list, tenant isolation, auth, bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, createProduct, instantBetween, listIds, okData, PRODUCT_KEYS, type Call } from './helpers/pim.js';

const CATEGORY_KEYS = ['children_count', 'created_at', 'description', 'id', 'level', 'name', 'parent_id', 'path', 'position', 'product_count', 'updated_at'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

for (const target of databaseTargets()) {
  describe(`categories (${target.name})`, () => {
    let h: Harness;
    let tenantA: Tenant;
    let a: Call;
    let b: Call;
    before(async () => {
      h = await harness(target);
      tenantA = await h.tenant('Org A');
      a = h.as(tenantA);
      b = h.as(await h.tenant('Org B'));
    });
    after(() => h.close());

    /** A fresh organization, so that lists and trees hold only what the test made. */
    const fresh = async (): Promise<Call> => h.as(await h.tenant());
    const create = async (call: Call, name: string, fields: Record<string, unknown> = {}): Promise<Json> =>
      okData(await call('POST', '/api/categories', { name, ...fields }), 201);
    const get = async (call: Call, id: number): Promise<Json> => okData(await call('GET', `/api/categories/${id}`));
    const children = async (call: Call, id: number): Promise<Json[]> => okData(await call('GET', `/api/categories/${id}/children`)).categories;
    const roots = async (call: Call): Promise<Json[]> => okData(await call('GET', '/api/categories?parent_id=null')).categories;
    const ids = (list: Json[]) => list.map((c) => c.id);
    const move = (call: Call, id: number, body: Record<string, unknown>) => call('POST', `/api/categories/${id}/move`, body);
    /** Siblings in order, checking that their positions are exactly 0..n-1. */
    const siblings = async (call: Call, parentId: number | null): Promise<number[]> => {
      const list = parentId === null ? await roots(call) : await children(call, parentId);
      assert.deepEqual(
        list.map((c) => c.position),
        list.map((_, i) => i),
        `positions under ${parentId}`,
      );
      return ids(list);
    };
    const productCategories = async (call: Call, productId: number) => okData(await call('GET', `/api/products/${productId}`)).categories;

    describe('create and read', () => {
      it('creates a root category with the full record', async () => {
        const c = await fresh();
        const root = await create(c, 'Apparel', { description: 'Clothes' });
        assert.deepEqual(Object.keys(root).sort(), CATEGORY_KEYS);
        assert.equal(root.name, 'Apparel');
        assert.equal(root.description, 'Clothes');
        assert.equal(root.parent_id, null);
        assert.equal(root.position, 0);
        assert.equal(root.level, 0);
        assert.deepEqual(root.path, [root.id]);
        assert.equal(root.children_count, 0);
        assert.equal(root.product_count, 0);
        assert.match(root.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.match(root.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.deepEqual(await get(c, root.id), root);
        assert.equal((await create(c, 'No description')).description, null);
      });

      it('appends children as last siblings, with level and path from the root (including itself)', async () => {
        const c = await fresh();
        const root = await create(c, 'Root');
        const first = await create(c, 'First', { parent_id: root.id });
        const second = await create(c, 'Second', { parent_id: root.id, description: null });
        const grandchild = await create(c, 'Grandchild', { parent_id: second.id });
        assert.deepEqual([first.position, second.position], [0, 1]);
        assert.deepEqual([first.level, grandchild.level], [1, 2]);
        assert.deepEqual(grandchild.path, [root.id, second.id, grandchild.id]);
        assert.equal(grandchild.parent_id, second.id);
        const rootNow = await get(c, root.id);
        assert.equal(rootNow.children_count, 2);
        assert.equal((await get(c, second.id)).children_count, 1);
        assert.equal((await create(c, 'Another root')).position, 1);
      });

      it('lists all categories by parent (roots first), position and id, each the same record as GET', async () => {
        const c = await fresh();
        const r1 = await create(c, 'R1');
        const r2 = await create(c, 'R2');
        const a1 = await create(c, 'A1', { parent_id: r2.id });
        const a2 = await create(c, 'A2', { parent_id: r2.id });
        const b1 = await create(c, 'B1', { parent_id: r1.id });
        const x = await create(c, 'X', { parent_id: a1.id });
        const data = okData(await c('GET', '/api/categories'));
        assert.deepEqual(Object.keys(data), ['categories', 'total']);
        assert.equal(data.total, 6);
        const byParent = (cat: Json) => [cat.parent_id ?? -1, cat.position, cat.id];
        const sorted = [...data.categories].sort((p, q) => {
          const [pp, ppos, pid] = byParent(p);
          const [qp, qpos, qid] = byParent(q);
          return pp - qp || ppos - qpos || pid - qid;
        });
        assert.deepEqual(ids(data.categories), ids(sorted));
        assert.deepEqual(ids(data.categories), [r1.id, r2.id, b1.id, a1.id, a2.id, x.id]);
        for (const cat of data.categories) assert.deepEqual(cat, await get(c, cat.id));
        assert.deepEqual(data.categories.find((cat: Json) => cat.id === x.id).path, [r2.id, a1.id, x.id]);
      });

      it('filters the list by parent_id; 0 and null both mean the root categories', async () => {
        const c = await fresh();
        const r1 = await create(c, 'R1');
        const r2 = await create(c, 'R2');
        const child = await create(c, 'Child', { parent_id: r1.id });
        for (const q of ['null', '0']) {
          const data = okData(await c('GET', `/api/categories?parent_id=${q}`));
          assert.deepEqual(ids(data.categories), [r1.id, r2.id]);
          assert.equal(data.total, 2);
        }
        const under = okData(await c('GET', `/api/categories?parent_id=${r1.id}`));
        assert.deepEqual(under, { categories: [await get(c, child.id)], total: 1 });
        assert.deepEqual(okData(await c('GET', `/api/categories?parent_id=${r2.id}`)), { categories: [], total: 0 });
        assert.deepEqual(okData(await c('GET', '/api/categories?parent_id=999999')), { categories: [], total: 0 });
      });

      it('lists the direct children of a category in position order', async () => {
        const c = await fresh();
        const root = await create(c, 'Root');
        const k1 = await create(c, 'K1', { parent_id: root.id });
        const k2 = await create(c, 'K2', { parent_id: root.id });
        await create(c, 'Deeper', { parent_id: k1.id });
        const data = okData(await c('GET', `/api/categories/${root.id}/children`));
        assert.deepEqual(Object.keys(data), ['categories', 'total']);
        assert.deepEqual(ids(data.categories), [k1.id, k2.id]);
        assert.equal(data.total, 2);
        assert.deepEqual(data.categories[0], await get(c, k1.id));
        assert.deepEqual(await children(c, k2.id), []);
      });

      it('answers the tree nested, ordered by position, every node the same record as GET plus children', async () => {
        const c = await fresh();
        assert.deepEqual(okData(await c('GET', '/api/categories/tree')), { categories: [], total: 0 });
        const r1 = await create(c, 'R1');
        const r2 = await create(c, 'R2');
        const a = await create(c, 'A', { parent_id: r1.id });
        const bb = await create(c, 'B', { parent_id: r1.id });
        const deep = await create(c, 'Deep', { parent_id: bb.id });
        okData(await move(c, bb.id, { parent_id: r1.id, position: 0 })); // B before A
        okData(await move(c, r2.id, { parent_id: null, position: 0 })); // R2 before R1
        const data = okData(await c('GET', '/api/categories/tree'));
        assert.deepEqual(Object.keys(data), ['categories', 'total']);
        assert.equal(data.total, 5);
        const shape = (nodes: Json[]): Json[] => nodes.map((n) => [n.id, shape(n.children)]);
        assert.deepEqual(shape(data.categories), [
          [r2.id, []],
          [
            r1.id,
            [
              [bb.id, [[deep.id, []]]],
              [a.id, []],
            ],
          ],
        ]);
        const walk = async (nodes: Json[]) => {
          for (const node of nodes) {
            const { children: kids, ...record } = node;
            assert.deepEqual(record, await get(c, node.id));
            assert.equal(record.children_count, kids.length);
            await walk(kids);
          }
        };
        await walk(data.categories);
        assert.deepEqual(data.categories[1].children[0].children[0].path, [r1.id, bb.id, deep.id]);
      });

      it('keeps any text intact through the tree and list JSON', async () => {
        const c = await fresh();
        const names = ['Quote " and \\ backslash', 'Line\nbreak\ttab', '</script><b>x</b>', 'Emoji 😀 ü ß 漢字', '\u2028\u2029', 'x'.repeat(255)];
        const made = [];
        for (const name of names) made.push(await create(c, name, { description: `${name} desc` }));
        const tree = okData(await c('GET', '/api/categories/tree'));
        assert.deepEqual(
          tree.categories.map((n: Json) => n.name),
          names,
        );
        assert.deepEqual(
          tree.categories.map((n: Json) => n.description),
          names.map((n) => `${n} desc`),
        );
        assert.deepEqual(
          okData(await c('GET', '/api/categories')).categories.map((n: Json) => n.name),
          names,
        );
        assert.equal((await get(c, made[0].id)).name, names[0]);
      });

      it('answers 404 for an unknown category and 400 for an id that is not one', async () => {
        for (const path of ['', '/children', '/products']) {
          assertError(await a('GET', `/api/categories/999999${path}`), 404, /Category 999999 not found/);
          assertError(await a('GET', `/api/categories/abc${path}`), 400, /path parameter 'id'/);
          assertError(await a('GET', `/api/categories/0${path}`), 400, /path parameter 'id'/);
        }
      });

      it('rejects a bad parent_id query', async () => {
        for (const q of ['abc', '-1', '1.5', '', 'NULL', '99999999999', '2147483648']) {
          assertError(await a('GET', `/api/categories?parent_id=${q}`), 400, /query parameter 'parent_id'/);
        }
      });

      it('rejects bad create bodies, naming the field', async () => {
        const c = await fresh();
        const cases: [unknown, RegExp][] = [
          [{}, /field 'name' is required/],
          [{ name: '' }, /field 'name'/],
          [{ name: 'x'.repeat(256) }, /field 'name'/],
          [{ name: 5 }, /field 'name'/],
          [{ name: null }, /field 'name'/],
          [{ name: 'X', description: 5 }, /field 'description'/],
          [{ name: 'X', parent_id: '1' }, /field 'parent_id'/],
          [{ name: 'X', parent_id: 0 }, /field 'parent_id'/],
          [{ name: 'X', parent_id: 1.5 }, /field 'parent_id'/],
          [{ name: 'X', position: 0 }, /field 'position' is not allowed/],
          [{ name: 'X', foo: 1 }, /field 'foo' is not allowed/],
          [{ name: 'X', parent_id: 999_999 }, /field 'parent_id': category 999999 not found/],
          [[{ name: 'X' }], /body/],
        ];
        for (const [body, message] of cases) assertError(await c('POST', '/api/categories', body), 400, message);
        assert.deepEqual(okData(await c('GET', '/api/categories')), { categories: [], total: 0 });
      });

      it('never answers odd but well-formed names with a 5xx', async () => {
        const c = await fresh();
        const odd = ['', ' ', '😀', '\u202e', '\uFFFF', '\ud800', "'; DROP TABLE categories; --", '%_\\', 0, null, [], {}];
        for (const name of odd) {
          const res = await c('POST', '/api/categories', { name });
          assert.ok([201, 400].includes(res.statusCode), `${JSON.stringify(name)}: ${res.statusCode} ${res.body}`);
          if (res.statusCode === 400) assertError(res, 400, /name/);
        }
        JSON.parse((await c('GET', '/api/categories/tree')).body);
      });
    });

    describe('update (PUT, partial)', () => {
      it('changes only the fields sent; description null clears it', async () => {
        const c = await fresh();
        const parent = await create(c, 'Parent');
        const cat = await create(c, 'Old', { description: 'Kept', parent_id: parent.id });
        const renamed = okData(await c('PUT', `/api/categories/${cat.id}`, { name: 'New' }));
        assert.equal(renamed.name, 'New');
        assert.equal(renamed.description, 'Kept');
        assert.equal(renamed.parent_id, parent.id);
        assert.equal(renamed.position, 0);
        const cleared = okData(await c('PUT', `/api/categories/${cat.id}`, { description: null }));
        assert.equal(cleared.description, null);
        assert.equal(cleared.name, 'New');
        assert.deepEqual(await get(c, cat.id), cleared);
      });

      it('moves to a new parent as its last child and renumbers the old siblings', async () => {
        const c = await fresh();
        const p1 = await create(c, 'P1');
        const p2 = await create(c, 'P2');
        const [x, y, z] = [await create(c, 'X', { parent_id: p1.id }), await create(c, 'Y', { parent_id: p1.id }), await create(c, 'Z', { parent_id: p1.id })];
        const existing = await create(c, 'Existing', { parent_id: p2.id });
        const moved = okData(await c('PUT', `/api/categories/${x.id}`, { parent_id: p2.id, name: 'X moved' }));
        assert.equal(moved.parent_id, p2.id);
        assert.equal(moved.position, 1);
        assert.deepEqual(moved.path, [p2.id, x.id]);
        assert.deepEqual(await siblings(c, p1.id), [y.id, z.id]);
        assert.deepEqual(await siblings(c, p2.id), [existing.id, x.id]);
        const toRoot = okData(await c('PUT', `/api/categories/${y.id}`, { parent_id: null }));
        assert.equal(toRoot.parent_id, null);
        assert.equal(toRoot.level, 0);
        assert.deepEqual(await siblings(c, null), [p1.id, p2.id, y.id]);
        assert.deepEqual(await siblings(c, p1.id), [z.id]);
        // The same parent again changes nothing.
        assert.equal(okData(await c('PUT', `/api/categories/${existing.id}`, { parent_id: p2.id })).position, 0);
      });

      it('refuses a parent that is the category itself, a descendant, unknown, or of another organization', async () => {
        const c = await fresh();
        const top = await create(c, 'Top');
        const mid = await create(c, 'Mid', { parent_id: top.id });
        const low = await create(c, 'Low', { parent_id: mid.id });
        const foreign = await create(b, 'B only');
        assertError(await c('PUT', `/api/categories/${top.id}`, { parent_id: top.id }), 400, /field 'parent_id'.*its own parent/);
        assertError(
          await c('PUT', `/api/categories/${top.id}`, { parent_id: low.id }),
          400,
          new RegExp(`field 'parent_id': category ${low.id} is a descendant of category ${top.id}`),
        );
        assertError(await c('PUT', `/api/categories/${top.id}`, { parent_id: mid.id, name: 'Not applied' }), 400, /descendant/);
        assertError(await c('PUT', `/api/categories/${mid.id}`, { parent_id: 999_999 }), 400, /category 999999 not found/);
        assertError(await c('PUT', `/api/categories/${mid.id}`, { parent_id: foreign.id }), 400, new RegExp(`category ${foreign.id} not found`));
        assert.deepEqual((await get(c, top.id)).name, 'Top');
        assert.deepEqual((await get(c, low.id)).path, [top.id, mid.id, low.id]);
      });

      it('rejects bad bodies and answers 404 for unknown ids', async () => {
        const c = await fresh();
        const cat = await create(c, 'Cat');
        assertError(await c('PUT', `/api/categories/${cat.id}`, {}), 400, /must carry name, description or parent_id/);
        assertError(await c('PUT', `/api/categories/${cat.id}`, { name: '' }), 400, /field 'name'/);
        assertError(await c('PUT', `/api/categories/${cat.id}`, { name: null }), 400, /field 'name'/);
        assertError(await c('PUT', `/api/categories/${cat.id}`, { position: 2 }), 400, /field 'position' is not allowed/);
        assertError(await c('PUT', `/api/categories/${cat.id}`, { parent_id: 'x' }), 400, /field 'parent_id'/);
        assertError(await c('PUT', '/api/categories/999999', { name: 'X' }), 404, /Category 999999 not found/);
        assertError(await c('PUT', '/api/categories/abc', { name: 'X' }), 400, /path parameter 'id'/);
      });
    });

    describe('move', () => {
      it('reorders among the same siblings, keeping positions 0..n-1', async () => {
        const c = await fresh();
        const p = await create(c, 'P');
        const [k0, k1, k2, k3] = [
          await create(c, 'K0', { parent_id: p.id }),
          await create(c, 'K1', { parent_id: p.id }),
          await create(c, 'K2', { parent_id: p.id }),
          await create(c, 'K3', { parent_id: p.id }),
        ];
        const moved = okData(await move(c, k3.id, { parent_id: p.id, position: 1 }));
        assert.equal(moved.position, 1);
        assert.deepEqual(await siblings(c, p.id), [k0.id, k3.id, k1.id, k2.id]);
        okData(await move(c, k0.id, { parent_id: p.id, position: 3 }));
        assert.deepEqual(await siblings(c, p.id), [k3.id, k1.id, k2.id, k0.id]);
        okData(await move(c, k2.id, { parent_id: p.id, position: 0 }));
        assert.deepEqual(await siblings(c, p.id), [k2.id, k3.id, k1.id, k0.id]);
        okData(await move(c, k1.id, { parent_id: p.id }));
        assert.deepEqual(await siblings(c, p.id), [k2.id, k3.id, k0.id, k1.id]);
      });

      it('moves to another parent at a position, renumbering old and new siblings; past the end appends', async () => {
        const c = await fresh();
        const from = await create(c, 'From');
        const to = await create(c, 'To');
        const [f0, f1, f2] = [
          await create(c, 'F0', { parent_id: from.id }),
          await create(c, 'F1', { parent_id: from.id }),
          await create(c, 'F2', { parent_id: from.id }),
        ];
        const [t0, t1] = [await create(c, 'T0', { parent_id: to.id }), await create(c, 'T1', { parent_id: to.id })];
        const leaf = await create(c, 'Leaf under F0', { parent_id: f0.id });
        const moved = okData(await move(c, f0.id, { parent_id: to.id, position: 1 }));
        assert.deepEqual([moved.parent_id, moved.position, moved.level, moved.path], [to.id, 1, 1, [to.id, f0.id]]);
        assert.deepEqual(await siblings(c, from.id), [f1.id, f2.id]);
        assert.deepEqual(await siblings(c, to.id), [t0.id, f0.id, t1.id]);
        assert.deepEqual((await get(c, leaf.id)).path, [to.id, f0.id, leaf.id], 'the subtree moves along');
        assert.equal(okData(await move(c, f1.id, { parent_id: to.id, position: 99 })).position, 3);
        assert.equal(okData(await move(c, f2.id, { parent_id: to.id, position: 2_147_483_647 })).position, 4);
        assert.deepEqual(await siblings(c, to.id), [t0.id, f0.id, t1.id, f1.id, f2.id]);
        assert.deepEqual(await siblings(c, from.id), []);
        assert.equal((await get(c, from.id)).children_count, 0);
        assert.equal((await get(c, to.id)).children_count, 5);
      });

      it('moves to the root with parent_id null, at a position or last', async () => {
        const c = await fresh();
        const r0 = await create(c, 'R0');
        const r1 = await create(c, 'R1');
        const child = await create(c, 'Child', { parent_id: r0.id });
        const sub = await create(c, 'Sub', { parent_id: child.id });
        const moved = okData(await move(c, child.id, { parent_id: null, position: 0 }));
        assert.deepEqual([moved.parent_id, moved.position, moved.level, moved.path], [null, 0, 0, [child.id]]);
        assert.deepEqual(await siblings(c, null), [child.id, r0.id, r1.id]);
        assert.deepEqual((await get(c, sub.id)).path, [child.id, sub.id]);
        assert.equal((await get(c, sub.id)).level, 1);
        okData(await move(c, child.id, { parent_id: r1.id }));
        okData(await move(c, child.id, { parent_id: null }));
        assert.deepEqual(await siblings(c, null), [r0.id, r1.id, child.id]);
      });

      it('refuses to move a category under itself or any descendant', async () => {
        const c = await fresh();
        const top = await create(c, 'Top');
        const mid = await create(c, 'Mid', { parent_id: top.id });
        const low = await create(c, 'Low', { parent_id: mid.id });
        const lowest = await create(c, 'Lowest', { parent_id: low.id });
        assertError(await move(c, top.id, { parent_id: top.id, position: 0 }), 400, /its own parent/);
        for (const descendant of [mid, low, lowest]) {
          assertError(await move(c, top.id, { parent_id: descendant.id }), 400, new RegExp(`category ${descendant.id} is a descendant of category ${top.id}`));
        }
        assertError(await move(c, mid.id, { parent_id: lowest.id }), 400, /descendant/);
        assert.deepEqual((await get(c, lowest.id)).path, [top.id, mid.id, low.id, lowest.id]);
        assert.equal((await get(c, top.id)).parent_id, null);
      });

      it('refuses unknown or foreign parents and bad bodies; 404 for unknown or foreign categories', async () => {
        const c = await fresh();
        const cat = await create(c, 'Cat');
        const foreign = await create(b, 'Foreign');
        assertError(await move(c, cat.id, { parent_id: 999_999 }), 400, /field 'parent_id': category 999999 not found/);
        assertError(await move(c, cat.id, { parent_id: foreign.id }), 400, new RegExp(`category ${foreign.id} not found`));
        assertError(await move(c, cat.id, {}), 400, /field 'parent_id' is required/);
        assertError(await move(c, cat.id, { position: 0 }), 400, /field 'parent_id' is required/);
        assertError(await move(c, cat.id, { parent_id: null, position: -1 }), 400, /field 'position'/);
        assertError(await move(c, cat.id, { parent_id: null, position: 1.5 }), 400, /field 'position'/);
        assertError(await move(c, cat.id, { parent_id: null, position: '1' }), 400, /field 'position'/);
        assertError(await move(c, cat.id, { parent_id: null, extra: 1 }), 400, /field 'extra' is not allowed/);
        assertError(await move(c, 999_999, { parent_id: null }), 404, /Category 999999 not found/);
        assertError(await move(c, foreign.id, { parent_id: null }), 404, new RegExp(`Category ${foreign.id} not found`));
        assertError(await move(c, foreign.id, { parent_id: cat.id }), 404, /not found/);
      });

      it('limits the depth to 32 levels', async () => {
        const c = await fresh();
        let parent = await create(c, 'Level 0');
        for (let level = 1; level <= 31; level++) parent = await create(c, `Level ${level}`, { parent_id: parent.id });
        assert.equal(parent.level, 31);
        assertError(await c('POST', '/api/categories', { name: 'Too deep', parent_id: parent.id }), 400, /deeper than 32 levels/);
        const small = await create(c, 'Small');
        await create(c, 'Small child', { parent_id: small.id });
        assertError(await move(c, small.id, { parent_id: parent.path[30] }), 400, /deeper than 32 levels/);
        assert.equal(okData(await move(c, small.id, { parent_id: parent.path[29] })).level, 30);
      });

      it('keeps positions contiguous and the tree acyclic under concurrent moves', async () => {
        const c = await fresh();
        const x = await create(c, 'X');
        const y = await create(c, 'Y');
        // Each under the other at once: one wins, the other is a cycle.
        const results = await Promise.all([move(c, x.id, { parent_id: y.id }), move(c, y.id, { parent_id: x.id })]);
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400], results.map((r) => r.body).join('\n'));
        const tree = okData(await c('GET', '/api/categories/tree'));
        assert.equal(tree.total, 2);
        assert.equal(tree.categories.length, 1);
        assert.equal(tree.categories[0].children.length, 1);

        const p = await create(c, 'P');
        const q = await create(c, 'Q');
        const kids = [];
        for (let i = 0; i < 8; i++) kids.push((await create(c, `Kid ${i}`, { parent_id: p.id })).id);
        await Promise.all(kids.map((id, i) => move(c, id, { parent_id: i % 2 ? q.id : p.id, position: (i * 5) % 7 })).map(async (r) => okData(await r)));
        const underP = await siblings(c, p.id);
        const underQ = await siblings(c, q.id);
        assert.deepEqual(
          [...underP, ...underQ].sort((m, n) => m - n),
          [...kids].sort((m, n) => m - n),
        );
        assert.equal(underQ.length, 4);

        const created = await Promise.all(Array.from({ length: 6 }, (_, i) => create(c, `Parallel ${i}`, { parent_id: q.id })));
        assert.equal(created.length, 6);
        assert.equal((await siblings(c, q.id)).length, 10);
      });

      it('renumbers siblings that came with gaps or duplicate positions', async () => {
        const c = h.as(await h.tenant());
        const parent = await create(c, 'Legacy parent');
        const one = await create(c, 'One', { parent_id: parent.id });
        const two = await create(c, 'Two', { parent_id: parent.id });
        await h.database.db.execute(sql`UPDATE categories SET position = 7 WHERE id IN (${one.id}, ${two.id})`);
        const three = await create(c, 'Three', { parent_id: parent.id });
        assert.equal(three.position, 2);
        assert.deepEqual(await siblings(c, parent.id), [one.id, two.id, three.id]);
      });
    });

    describe('delete', () => {
      it('refuses a category with children and says so', async () => {
        const c = await fresh();
        const parent = await create(c, 'Parent');
        await create(c, 'Child', { parent_id: parent.id });
        await create(c, 'Child 2', { parent_id: parent.id });
        assertError(await c('DELETE', `/api/categories/${parent.id}`), 400, new RegExp(`Category ${parent.id} has 2 child categories`));
        assert.equal((await get(c, parent.id)).children_count, 2);
      });

      it('deletes a leaf, unassigns its products (moving their updated_at) and renumbers the siblings', async () => {
        const c = await fresh();
        const parent = await create(c, 'Parent');
        const [s0, s1, s2] = [
          await create(c, 'S0', { parent_id: parent.id }),
          await create(c, 'S1', { parent_id: parent.id }),
          await create(c, 'S2', { parent_id: parent.id }),
        ];
        const keep = await create(c, 'Keep');
        const p1 = await createProduct(c, { category_ids: [s0.id, keep.id] });
        const p2 = await createProduct(c, { category_ids: [s0.id] });
        const untouched = await createProduct(c, { category_ids: [keep.id] });
        const at = await instantBetween();
        const res = okData(await c('DELETE', `/api/categories/${s0.id}`));
        assert.deepEqual(res, { id: s0.id, deleted: true, unassigned_products: 2 });
        assertError(await c('GET', `/api/categories/${s0.id}`), 404);
        assertError(await c('DELETE', `/api/categories/${s0.id}`), 404, /not found/);
        assert.deepEqual(await productCategories(c, p1.id), [{ id: keep.id, name: 'Keep' }]);
        assert.deepEqual(await productCategories(c, p2.id), []);
        assert.deepEqual(await listIds(c, `updated_since=${at}`), [p1.id, p2.id]);
        assert.deepEqual(await productCategories(c, untouched.id), [{ id: keep.id, name: 'Keep' }]);
        assert.deepEqual(await siblings(c, parent.id), [s1.id, s2.id]);
        assert.equal((await get(c, keep.id)).product_count, 2);
      });

      it('deletes a root and renumbers the roots', async () => {
        const c = await fresh();
        const [r0, r1, r2] = [await create(c, 'R0'), await create(c, 'R1'), await create(c, 'R2')];
        okData(await c('DELETE', `/api/categories/${r1.id}`));
        assert.deepEqual(await siblings(c, null), [r0.id, r2.id]);
      });

      it('answers 404 for unknown ids and 400 for bad ones', async () => {
        assertError(await a('DELETE', '/api/categories/999999'), 404, /Category 999999 not found/);
        assertError(await a('DELETE', '/api/categories/x'), 400, /path parameter 'id'/);
      });
    });

    describe('products of a category', () => {
      it('assigns products all at once, accepts ones already assigned, and moves updated_at of the new ones only', async () => {
        const c = await fresh();
        const cat = await create(c, 'Shoes');
        const [p1, p2, p3] = [await createProduct(c), await createProduct(c), await createProduct(c, { category_ids: [cat.id] })];
        const at = await instantBetween();
        const res = okData(await c('POST', `/api/categories/${cat.id}/products`, { product_ids: [p2.id, p1.id, p3.id] }));
        assert.deepEqual(res, { category_id: cat.id, product_ids: [p2.id, p1.id, p3.id], assigned: 2, product_count: 3 });
        assert.deepEqual(await listIds(c, `updated_since=${at}`), [p1.id, p2.id]);
        for (const p of [p1, p2, p3]) assert.deepEqual(await productCategories(c, p.id), [{ id: cat.id, name: 'Shoes' }]);
        const again = okData(await c('POST', `/api/categories/${cat.id}/products`, { product_ids: [p1.id] }));
        assert.deepEqual(again, { category_id: cat.id, product_ids: [p1.id], assigned: 0, product_count: 3 });
        assert.equal((await get(c, cat.id)).product_count, 3);
      });

      it('assigns nothing when any id is unknown or of another organization, naming them', async () => {
        const c = await fresh();
        const cat = await create(c, 'Cat');
        const own = await createProduct(c);
        const foreign = await createProduct(b);
        const at = await instantBetween();
        assertError(
          await c('POST', `/api/categories/${cat.id}/products`, { product_ids: [own.id, 999_999, foreign.id] }),
          400,
          new RegExp(`field 'product_ids': products ${Math.min(foreign.id, 999_999)}, ${Math.max(foreign.id, 999_999)} not found; nothing was assigned`),
        );
        assertError(await c('POST', `/api/categories/${cat.id}/products`, { product_ids: [foreign.id] }), 400, new RegExp(`product ${foreign.id} not found`));
        assert.deepEqual(await productCategories(c, own.id), []);
        assert.equal((await get(c, cat.id)).product_count, 0);
        assert.deepEqual(await listIds(c, `updated_since=${at}`), []);
        assert.deepEqual(await productCategories(b, foreign.id), []);
      });

      it('rejects bad assignment bodies and unknown categories', async () => {
        const c = await fresh();
        const cat = await create(c, 'Cat');
        const p = await createProduct(c);
        const url = `/api/categories/${cat.id}/products`;
        for (const body of [
          {},
          { product_ids: [] },
          { product_ids: [0] },
          { product_ids: ['1'] },
          { product_ids: [p.id, p.id] },
          { product_ids: p.id },
          { product_ids: Array.from({ length: 1001 }, (_, i) => i + 1) },
        ]) {
          assertError(await c('POST', url, body), 400, /product_ids/);
        }
        assertError(await c('POST', url, { product_ids: [p.id], extra: true }), 400, /field 'extra' is not allowed/);
        assertError(await c('POST', '/api/categories/999999/products', { product_ids: [p.id] }), 404, /Category 999999 not found/);
      });

      it('lists the assigned products paginated exactly like the product list', async () => {
        const c = await fresh();
        const cat = await create(c, 'Paged');
        const other = await create(c, 'Other');
        const made = [];
        for (let i = 0; i < 5; i++) made.push(await createProduct(c, { name: `Paged ${i}` }));
        await createProduct(c, { category_ids: [other.id] });
        okData(await c('POST', `/api/categories/${cat.id}/products`, { product_ids: made.map((p) => p.id).reverse() }));
        const page1 = okData(await c('GET', `/api/categories/${cat.id}/products?limit=2`));
        assert.deepEqual(Object.keys(page1), ['products', 'pagination']);
        assert.deepEqual(page1.pagination, { current_page: 1, total_pages: 3, total_items: 5, items_per_page: 2 });
        assert.deepEqual(ids(page1.products), [made[0].id, made[1].id]);
        for (const product of page1.products) assert.deepEqual(Object.keys(product).sort(), PRODUCT_KEYS);
        assert.deepEqual(page1.products[0], okData(await c('GET', `/api/products/${made[0].id}`)));
        const page3 = okData(await c('GET', `/api/categories/${cat.id}/products?limit=2&page=3`));
        assert.deepEqual(ids(page3.products), [made[4].id]);
        const past = okData(await c('GET', `/api/categories/${cat.id}/products?limit=2&page=9`));
        assert.deepEqual(past, { products: [], pagination: { current_page: 9, total_pages: 3, total_items: 5, items_per_page: 2 } });
        const all = okData(await c('GET', `/api/categories/${cat.id}/products`));
        assert.equal(all.pagination.items_per_page, 20);
        assert.deepEqual(
          ids(all.products),
          made.map((p) => p.id),
        );
        const empty = await create(c, 'Empty');
        assert.deepEqual(okData(await c('GET', `/api/categories/${empty.id}/products`)), {
          products: [],
          pagination: { current_page: 1, total_pages: 0, total_items: 0, items_per_page: 20 },
        });
        for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x']) {
          assertError(await c('GET', `/api/categories/${cat.id}/products?${q}`), 400, /query parameter '(limit|page)'/);
        }
      });

      it('stays consistent with the category_ids of product create and PATCH', async () => {
        const c = await fresh();
        const x = await create(c, 'X');
        const y = await create(c, 'Y');
        const p = await createProduct(c, { category_ids: [x.id] });
        assert.equal((await get(c, x.id)).product_count, 1);
        assert.deepEqual(ids(okData(await c('GET', `/api/categories/${x.id}/products`)).products), [p.id]);
        okData(await c('PATCH', `/api/products/${p.id}`, { category_ids: [y.id] }));
        assert.equal((await get(c, x.id)).product_count, 0);
        assert.deepEqual(ids(okData(await c('GET', `/api/categories/${y.id}/products`)).products), [p.id]);
        const tree = okData(await c('GET', '/api/categories/tree'));
        assert.deepEqual(
          tree.categories.map((n: Json) => [n.id, n.product_count]),
          [
            [x.id, 0],
            [y.id, 1],
          ],
        );
      });

      it('renaming a category moves updated_at of its products, which show the new name', async () => {
        const c = await fresh();
        const cat = await create(c, 'Before');
        const p = await createProduct(c, { category_ids: [cat.id] });
        const bystander = await createProduct(c);
        let at = await instantBetween();
        okData(await c('PUT', `/api/categories/${cat.id}`, { description: 'No visible change on products' }));
        assert.deepEqual(await listIds(c, `updated_since=${at}`), []);
        at = await instantBetween();
        okData(await c('PUT', `/api/categories/${cat.id}`, { name: 'After' }));
        assert.deepEqual(await listIds(c, `updated_since=${at}`), [p.id]);
        assert.deepEqual(await productCategories(c, p.id), [{ id: cat.id, name: 'After' }]);
        assert.deepEqual(await productCategories(c, bystander.id), []);
      });
    });

    describe('tenant isolation', () => {
      it("never shows or changes another organization's categories", async () => {
        const own = await create(a, 'A secret');
        const ownChild = await create(a, 'A child', { parent_id: own.id });
        const product = await createProduct(a, { category_ids: [own.id] });
        const before = await get(a, own.id);
        const theirs = await create(b, 'B own');
        const theirProduct = await createProduct(b);

        for (const path of ['', '/children', '/products'])
          assertError(await b('GET', `/api/categories/${own.id}${path}`), 404, new RegExp(`Category ${own.id} not found`));
        assertError(await b('PUT', `/api/categories/${own.id}`, { name: 'Taken' }), 404);
        assertError(await b('DELETE', `/api/categories/${ownChild.id}`), 404);
        assertError(await b('POST', `/api/categories/${own.id}/move`, { parent_id: null }), 404);
        assertError(await b('POST', `/api/categories/${own.id}/products`, { product_ids: [theirProduct.id] }), 404);
        assertError(await b('POST', '/api/categories', { name: 'Under A', parent_id: own.id }), 400, new RegExp(`category ${own.id} not found`));
        assertError(await b('POST', `/api/categories/${theirs.id}/move`, { parent_id: own.id }), 400, /not found/);
        assertError(await b('PUT', `/api/categories/${theirs.id}`, { parent_id: own.id }), 400, /not found/);
        assertError(
          await b('POST', `/api/categories/${theirs.id}/products`, { product_ids: [product.id] }),
          400,
          new RegExp(`product ${product.id} not found`),
        );
        assertError(await b('POST', '/api/products', { name: 'X', sku: 'B-X-1', category_ids: [own.id] }), 400, /category_ids/);

        const seenByB = [
          ...okData(await b('GET', '/api/categories')).categories,
          ...okData(await b('GET', '/api/categories/tree')).categories,
          ...okData(await b('GET', `/api/categories?parent_id=${own.id}`)).categories,
        ];
        assert.ok(seenByB.every((cat: Json) => cat.id !== own.id && cat.id !== ownChild.id));
        assert.deepEqual(okData(await b('GET', `/api/categories?parent_id=${own.id}`)), { categories: [], total: 0 });
        assert.deepEqual(await get(a, own.id), before);
        assert.deepEqual(await productCategories(a, product.id), [{ id: own.id, name: 'A secret' }]);
      });
    });

    describe('authentication', () => {
      it('answers 401 without a key or with a wrong one on every category route', async () => {
        const cat = await create(a, 'Auth');
        const routes: [string, string, unknown?][] = [
          ['GET', '/api/categories'],
          ['GET', '/api/categories/tree'],
          ['GET', `/api/categories/${cat.id}`],
          ['POST', '/api/categories', { name: 'X' }],
          ['PUT', `/api/categories/${cat.id}`, { name: 'X' }],
          ['DELETE', `/api/categories/${cat.id}`],
          ['GET', `/api/categories/${cat.id}/children`],
          ['GET', `/api/categories/${cat.id}/products`],
          ['POST', `/api/categories/${cat.id}/products`, { product_ids: [1] }],
          ['POST', `/api/categories/${cat.id}/move`, { parent_id: null }],
        ];
        const anonymous = h.as(null);
        const wrong = h.as({ ...tenantA, apiKey: 'not-a-key' });
        for (const [method, url, body] of routes) {
          assertError(await anonymous(method, url, body), 401);
          assertError(await wrong(method, url, body), 401);
        }
        assert.equal((await get(a, cat.id)).name, 'Auth');
      });
    });

    it('documents every category route in the OpenAPI document', async () => {
      const doc = (await h.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json();
      for (const path of [
        '/api/categories',
        '/api/categories/tree',
        '/api/categories/{id}',
        '/api/categories/{id}/children',
        '/api/categories/{id}/products',
        '/api/categories/{id}/move',
      ]) {
        assert.ok(doc.paths[path], path);
      }
      assert.deepEqual(Object.keys(doc.paths['/api/categories/{id}']).sort(), ['delete', 'get', 'put']);
    });
  });
}
