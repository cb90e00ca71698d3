// docs/architecture.md held to the code: its tables of module files and public files against what
// .dependency-cruiser.cjs declares, and both against the import graph dependency-cruiser builds of src/.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { cruise, type IModule } from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const config = require(path.join(root, '.dependency-cruiser.cjs'));
const layout: {
  MODULES: Record<string, string>;
  PUBLIC: { name: string; file: string; users: string[]; typeOnly?: boolean }[];
  MODULE_FILES: string;
  TABLES: Record<string, string>;
  APP: string;
} = config.layout;

/** The rows of the markdown table that follows `heading` (cells trimmed, header and rule skipped). */
function tableAfter(doc: string, heading: string): string[][] {
  const at = doc.indexOf(heading);
  assert.ok(at >= 0, `docs/architecture.md has a section "${heading}"`);
  const lines = doc.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** The `src/…` paths in a cell's backticks (a bare name continues the folder of the path before it: `a/b.ts`, `c.ts`). */
function pathsIn(cell: string): string[] {
  let folder = '';
  return [...cell.matchAll(/`([^`]+\.ts)`/g)].map(([, name]) => {
    if (!name.includes('/')) return `src/${folder}/${name}`;
    folder = path.posix.dirname(name);
    return `src/${name}`;
  });
}

const doc = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
const isTables = (file: string) => Object.values(layout.TABLES).some((re) => new RegExp(re).test(file));
const moduleOf = (file: string) => Object.entries(layout.MODULES).find(([, re]) => new RegExp(re).test(file))?.[0];

describe('docs/architecture.md against the dependency rules and the import graph', () => {
  let graph: IModule[];
  before(async () => {
    const { forbidden: _rules, ...ruleSetless } = config;
    const result = await cruise(['src'], { ...ruleSetless.options, validate: false, baseDir: root }, undefined, {
      tsConfig: require(path.join(root, 'tsconfig.json')),
    });
    if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not a graph');
    graph = result.output.modules;
    assert.ok(graph.length > 100, `the graph has the modules of src/ (${graph.length})`);
  });
  const importers = (target: string) => graph.filter((m) => m.dependencies.some((d) => d.resolved === target)).map((m) => m.source);

  it('lists exactly the module files the rules declare, each existing and imported by the app', () => {
    const rows = tableAfter(doc, '## Modules assemble themselves');
    const documented = rows.flatMap((r) => pathsIn(r[1]));
    assert.equal(documented.length, rows.length, 'one module file per row');
    assert.deepEqual(new Set(rows.map((r) => r[0])), new Set(Object.keys(layout.MODULES).filter((m) => m !== 'port')));
    const declared = new RegExp(layout.MODULE_FILES);
    for (const file of documented) {
      assert.ok(existsSync(path.join(root, file)), `${file} exists`);
      assert.ok(declared.test(file), `${file} is in MODULE_FILES`);
      const fromApp = importers(file).filter((f) => new RegExp(layout.APP).test(f));
      assert.ok(fromApp.length > 0, `the app imports ${file}`);
    }
    // And no module file the rules allow that the page does not name.
    const allowed = graph.map((m) => m.source).filter((f) => declared.test(f));
    assert.deepEqual(new Set(allowed), new Set(documented));
  });

  it('lists exactly the public files the rules declare, with the same users', () => {
    const rows = tableAfter(doc, '## Modules and their public files');
    const documented = rows.flatMap((r) =>
      pathsIn(r[0]).map((file) => ({
        file,
        users: r[1]
          .replace(/\(types only\)/g, '')
          .split(',')
          .map((u) => u.trim()),
        typeOnly: r[1].includes('types only'),
      })),
    );
    for (const { file, users, typeOnly } of documented) {
      const rule = layout.PUBLIC.find((p) => new RegExp(p.file).test(file));
      assert.ok(rule, `${file} is declared public in .dependency-cruiser.cjs`);
      assert.deepEqual(new Set(users), new Set(rule.users), `${file}: the same users`);
      assert.equal(typeOnly, rule.typeOnly === true, `${file}: types only or not, as declared`);
    }
    for (const rule of layout.PUBLIC) {
      assert.ok(
        documented.some((d) => new RegExp(rule.file).test(d.file)),
        `${rule.name} (${rule.file}) is on the page`,
      );
    }
  });

  it('names no public file that one of its users no longer imports, and the graph crosses modules only through them', () => {
    const rows = tableAfter(doc, '## Modules and their public files');
    for (const row of rows) {
      const users = row[1]
        .replace(/\(types only\)/g, '')
        .split(',')
        .map((u) => u.trim());
      for (const user of users) {
        const importedBy = new Set(
          pathsIn(row[0])
            .flatMap((file) => importers(file))
            .map(moduleOf),
        );
        assert.ok(importedBy.has(user), `${row[0]}: ${user} imports it`);
      }
    }
    const documentedFiles = new Set(rows.flatMap((r) => pathsIn(r[0])));
    for (const m of graph) {
      const from = moduleOf(m.source);
      if (!from) continue;
      for (const d of m.dependencies) {
        const to = moduleOf(d.resolved);
        // A tables file may name another module's tables file, for a foreign key (the tables rules, below).
        if (isTables(m.source) && isTables(d.resolved)) continue;
        if (to && to !== from) assert.ok(documentedFiles.has(d.resolved), `${m.source} → ${d.resolved} crosses through a public file on the page`);
      }
    }
  });

  it('lists every tables file under "Tables and their owners", with its owner and exactly the tables it declares', () => {
    const rows = tableAfter(doc, '## Tables and their owners');
    const documented = rows.flatMap((r) => pathsIn(r[1]).map((file) => ({ owner: r[0], file, tables: [...r[2].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]) })));
    for (const [owner, re] of Object.entries(layout.TABLES)) {
      const files = graph.map((m) => m.source).filter((f) => new RegExp(re).test(f));
      assert.ok(files.length > 0, `${owner} has a tables file (${re}) in src/`);
      for (const file of files)
        assert.ok(
          documented.some((d) => d.file === file && d.owner === owner),
          `${file} is on the page, as ${owner}'s`,
        );
    }
    for (const { owner, file, tables } of documented) {
      if (owner !== 'platform')
        assert.ok(new RegExp(layout.TABLES[owner] ?? '^$').test(file), `${file} is a tables file of ${owner} in .dependency-cruiser.cjs`);
      const declared = [...readFileSync(path.join(root, file), 'utf8').matchAll(/pgTable\(\s*'([a-z_]+)'/g)].map((m) => m[1]);
      assert.deepEqual(new Set(tables), new Set(declared), `${file}: the page lists the tables it declares`);
    }
  });
});
