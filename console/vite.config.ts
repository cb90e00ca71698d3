// The console's build: one page, hashed assets in dist/assets (served by the Pimbridge server, see
// src/server/console-static.ts). Pages that are not needed at sign-in are split into chunks of their own. Every text
// asset also gets a brotli (.br) and a gzip (.gz) copy, made once here at the highest levels, so the server sends them
// compressed without compressing per request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1_024;

function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'pimbridge-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const dir = path.join(outDir, 'assets');
      for (const name of readdirSync(dir)) {
        if (!/\.(js|css|svg|json|txt)$/.test(name)) continue;
        const file = path.join(dir, name);
        const content = readFileSync(file);
        if (content.length < MIN_BYTES) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's CSP allows no inline script: Vite's module preload polyfill would be one.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    // `npm run console:dev`: the page on Vite's dev server, the API on a running Pimbridge (PIMBRIDGE_URL).
    proxy: { '/api': process.env.PIMBRIDGE_URL ?? 'http://127.0.0.1:8080', '/media': process.env.PIMBRIDGE_URL ?? 'http://127.0.0.1:8080' },
  },
});
