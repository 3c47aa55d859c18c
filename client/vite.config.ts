// Dev server proxies every server path to the realtime server, so the browser sees one origin
// exactly as in production (cookies, Origin checks and relative URLs behave the same).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// By relative path: Vite bundles the config, so this reads the TypeScript source itself.
import { DOCUMENT_PATH, WORKSPACE_PATH } from '../shared/src/protocol.ts';

const target = process.env.TANDEM_SERVER ?? 'http://localhost:8080';

type ProxyServer = {
  on(event: 'proxyReq' | 'proxyReqWs', fn: (req: { setHeader(k: string, v: string): void }) => void): void;
};
const sameOrigin = (proxy: ProxyServer) => {
  proxy.on('proxyReq', (req) => req.setHeader('origin', target));
  proxy.on('proxyReqWs', (req) => req.setHeader('origin', target));
};

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    // The server checks Origin against its PUBLIC_ORIGIN on writes and upgrades; the browser's
    // Origin here is Vite's port, so the proxy presents the server's own origin instead.
    proxy: {
      '/api': { target, configure: sameOrigin },
      [DOCUMENT_PATH]: { target, ws: true, configure: sameOrigin },
      [WORKSPACE_PATH]: { target, ws: true, configure: sameOrigin },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
});
