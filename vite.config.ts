import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { publicPagesPlugin } from './scripts/vite-plugin-public-pages';
import { serviceWorkerPlugin } from './scripts/vite-plugin-service-worker';
import { signedInChunk } from './scripts/signed-in-chunk';

// The client is built into dist/client and served by the Fastify server (`npm start`).
// In development (`npm run dev`) Vite serves it and proxies the API to the server.
// After a build, the service worker (src-sw) is bundled into dist/client/sw.js with the
// precache manifest of what was built, the public pages drawn to HTML among them.
const apiTarget = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [
    react(),
    publicPagesPlugin({ root: import.meta.dirname }),
    serviceWorkerPlugin({ root: import.meta.dirname }),
  ],
  root: 'src/client',
  publicDir: '../../public',
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // Maps are built for debugging but not referenced from the bundles; the server never serves them.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: { codeSplitting: { groups: [signedInChunk(import.meta.dirname)] } },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/auth': apiTarget,
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
