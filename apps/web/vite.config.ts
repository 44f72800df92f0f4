import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const pkg = (name: string) => fileURLToPath(new URL(`../../packages/${name}/src/index.ts`, import.meta.url));
// The API server the dev server proxies to; CRDP_API overrides it (e.g. a server on another port).
const api = process.env.CRDP_API ?? 'http://127.0.0.1:8000';

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
        // Function form: accepted by Vite 7 (Rollup) and Vite 8 (Rolldown) alike.
        manualChunks(id: string) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          if (id.includes('node_modules/@ant-design/pro-')) return 'pro';
          if (/node_modules\/(antd|@ant-design|rc-[\w-]+|@rc-component)\//.test(id)) return 'antd';
          if (/node_modules\/(echarts|zrender)/.test(id)) return 'echarts';
          return undefined;
        },
      },
    },
  },
});
