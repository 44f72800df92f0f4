import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const pkg = (name: string) => fileURLToPath(new URL(`../../packages/${name}/src/index.ts`, import.meta.url));
const api = 'http://127.0.0.1:8000';

// The workspace packages are compiled from source, so the web app builds without `tsc -b` first.
export default defineConfig({
  plugins: [react()],
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
    rollupOptions: {
      output: {
        manualChunks: {
          react: ['react', 'react-dom', 'react-router'],
          antd: ['antd', '@ant-design/icons'],
          pro: ['@ant-design/pro-components'],
        },
      },
    },
  },
});
