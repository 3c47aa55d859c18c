// Dev server proxies every server path to the realtime server, so the browser sees one origin
// exactly as in production (cookies, Origin checks and relative URLs behave the same).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const target = process.env.TANDEM_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target, changeOrigin: false },
      '/yjs': { target, ws: true, changeOrigin: false },
      '/socket.io': { target, ws: true, changeOrigin: false },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
});
