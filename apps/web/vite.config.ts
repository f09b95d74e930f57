import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const webPackage = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this size compression saves less than its header costs. */
const MIN_BYTES = 1024;

/**
 * Compresses each text asset of the build once, beside itself (name.br at brotli's best, name.gz),
 * so the server sends them compressed without compressing per request. Source maps are left plain.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'accord-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const item of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!item.isFile() || !COMPRESSIBLE.test(item.name)) continue;
        const file = path.join(item.parentPath, item.name);
        const content = readFileSync(file);
        if (content.length < MIN_BYTES) continue;
        const params = {
          [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
        };
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * Libraries every page runs, each in a chunk of its own: a release that changes only the app's code
 * leaves them cached (their names keep their hash), and the browser fetches them in parallel. The
 * rest (Mantine's components, ECharts, the screens) is split by where it is used, so a screen loads
 * only what it shows.
 */
const VENDOR_CHUNKS: { name: string; test: RegExp }[] = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'router', test: /[\\/]node_modules[\\/]react-router[\\/]/ },
  { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
  { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
];

// The API runs on port 3000 in development; in production the server serves this build at /.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  plugins: [react(), precompress()],
  define: {
    __APP_VERSION__: JSON.stringify(webPackage.version),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: { codeSplitting: { groups: VENDOR_CHUNKS } },
    },
  },
});
