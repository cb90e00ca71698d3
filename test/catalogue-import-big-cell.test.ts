// A 50 MB file with one 48 MB multi-line quoted cell: it used to run for minutes, read the cell's lines as
// 1.36 M broken rows and fail the whole import on a spread of them (`RangeError: Maximum call stack size exceeded`).
// Now the row with the cell is refused with its reason and the rows around it import, in seconds, in both formats.
// The file is generated as a stream (never one string) and uploaded over HTTP as the API takes it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FORMATS } from '../src/catalogue-csv/draft.js';
import { bigCellFile, multipartStream } from './helpers/big-cell.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { until } from './helpers/jobs.js';
import { okData } from './helpers/pim.js';

const CELL_BYTES = 48 * 1024 * 1024;

for (const target of databaseTargets()) {
  describe(`an import with a 48 MB cell (${target.name})`, () => {
    let h: Harness;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-big-cell-'));
      h = await harness(target, { DATA_DIR: dataDir, IMPORT_MAX_BYTES: String(64 * 1024 * 1024), SYNC_POLL_SECONDS: '0' });
      await h.app.services.jobs.workers.start();
    });
    after(async () => {
      await h?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    for (const format of FORMATS) {
      it(`${format}: refuses that row with its reason and imports the others, in seconds`, { timeout: 120_000 }, async () => {
        const t = await h.tenant();
        const call = h.as(t);
        const file = bigCellFile(format, { cellBytes: CELL_BYTES });
        const { body, contentType } = multipartStream(file);
        const started = Date.now();
        const accepted = okData(await call('POST', '/api/imports', body, { 'content-type': contentType }), 202);
        assert.ok(accepted.size_bytes > 48 * 1024 * 1024, `a file of ${accepted.size_bytes} bytes`);
        assert.equal(accepted.rows_total, file.keys.length + 1, 'the big row is one row');
        const done = await until(
          'the import to end',
          async () => {
            const view = okData(await call('GET', `/api/imports/${accepted.id}`));
            return view.state === 'completed' || view.state === 'failed' ? view : null;
          },
          60_000,
        );
        const seconds = (Date.now() - started) / 1000;
        assert.deepEqual(
          [done.state, done.error, done.created, done.failed, done.rows_done],
          ['completed', null, file.keys.length, 1, file.keys.length + 1],
          JSON.stringify(done),
        );
        const errors = (await call('GET', `/api/imports/${accepted.id}/errors.csv`)).body.trim().split('\n');
        assert.equal(errors.length, 2, errors.join('\n'));
        const column = format === 'ours' ? 'description' : 'Body \\(HTML\\)';
        const lastLine = (file.bigLine + file.bigLines - 1).toLocaleString('en-US');
        assert.match(
          errors[1],
          new RegExp(
            `^${file.bigLine},${file.bigKey},"?column '${column}' holds [0-9,]+ characters, more than the 1 Mi \\(1,048,576\\) a cell may hold; the row was not imported \\(lines ${file.bigLine} to ${lastLine}\\)`,
          ),
        );
        const products = okData(await call('GET', '/api/products?limit=100')).products;
        assert.deepEqual(products.map((p: { sku: string }) => p.sku).sort(), [...file.keys].sort());
        assert.ok(seconds < 30, `took ${seconds} s`);
      });
    }
  });
}
