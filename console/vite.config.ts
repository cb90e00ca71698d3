// The console's build: one page, hashed assets in dist/assets (served by the Pimbridge server, see
// src/server/console-static.ts). Pages that are not needed at sign-in are split into chunks of their own.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
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
