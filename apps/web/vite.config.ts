import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

/**
 * Writes `file.br` and `file.gz` beside every compressible file of the build, so the server
 * sends them by Accept-Encoding (@fastify/static `preCompressed`) without compressing per request.
 * Node's zlib does the work; files under 1 KB gain nothing and are left alone.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'crdp-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
        .map((e) => path.join(e.parentPath, e.name));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          if (data.length < 1024) return;
          const [br, gzipped] = await Promise.all([
            brotli(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gz(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        }),
      );
    },
  };
}

const pkg = (name: string) => fileURLToPath(new URL(`../../packages/${name}/src/index.ts`, import.meta.url));
// The API server the dev server proxies to; CRDP_API overrides it (e.g. a server on another port).
const api = process.env.CRDP_API ?? 'http://127.0.0.1:8000';

// The workspace packages are compiled from source, so the web app builds without `tsc -b` first.
export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@crdp/core': pkg('core'), '@crdp/crf': pkg('crf'), '@crdp/charts': pkg('charts') },
  },
  server: {
    port: 5173,
    proxy: { '/api': api, '/healthz': api, '/readyz': api },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically (React, the router, the HTTP client, antd's core,
        // the texts) is needed by every page, the login page included: one file instead of ~20
        // small ones (fewer requests, better Brotli). Pages and the signed-in shell stay lazy and
        // are split by use, so the login page downloads no page's code.
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
});
