import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client is built into dist/client and served by the Fastify server (`npm start`).
// In development (`npm run dev`) Vite serves it and proxies the API to the server.
const apiTarget = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [react()],
  root: 'src/client',
  publicDir: '../../public',
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
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
