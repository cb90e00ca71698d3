// Refreshes (or, with --check, verifies) the committed Admin API schema from the npm package that publishes it:
//   node scripts/update-shopify-schema.mjs [--version 1.17.0] [--check]
// Downloads the package tarball with `npm pack` (the ordinary registry client), takes dist/data/admin_<API>.json.gz out of
// it, and writes it and schema/source.json. `--check` only compares the committed file with the package's, byte for byte.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'src', 'storefront', 'shopify', 'schema');
const sourceFile = path.join(dir, 'source.json');
const source = JSON.parse(readFileSync(sourceFile, 'utf8'));
const args = process.argv.slice(2);
const check = args.includes('--check');
const versionAt = args.indexOf('--version');
const version = versionAt >= 0 ? args[versionAt + 1] : source.version;

const tmp = mkdtempSync(path.join(tmpdir(), 'shopify-schema-'));
try {
  const packed = spawnSync('npm', ['pack', `${source.package}@${version}`, '--json', '--pack-destination', tmp], { encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout);
  const untar = spawnSync('tar', ['xzf', path.join(tmp, info.filename), '-C', tmp, `package/${source.file}`]);
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  const fresh = readFileSync(path.join(tmp, 'package', source.file));
  const target = path.join(dir, path.basename(source.file));
  if (check) {
    const same = fresh.equals(readFileSync(target));
    process.stdout.write(
      same
        ? `${path.basename(target)} equals ${source.package}@${version}'s file\n`
        : `${path.basename(target)} differs from ${source.package}@${version}'s file\n`,
    );
    process.exit(same ? 0 : 1);
  }
  writeFileSync(target, fresh);
  const next = { ...source, version, tarballIntegrity: info.integrity, sha256: createHash('sha256').update(fresh).digest('hex') };
  writeFileSync(sourceFile, `${JSON.stringify(next, null, 2)}\n`);
  process.stdout.write(`Wrote ${path.relative(root, target)} from ${source.package}@${version}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
