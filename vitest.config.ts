import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url));

// Tests run the TypeScript sources of the workspace packages directly, so no build is needed first.
export default defineConfig({
  resolve: {
    alias: {
      '@crdp/core': src('core'),
      '@crdp/crf': src('crf'),
      '@crdp/charts': src('charts'),
      '@crdp/stats': src('stats'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
