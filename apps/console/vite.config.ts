import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const apiTarget = process.env.ROLLCALL_API_URL ?? 'http://127.0.0.1:3000';

// The dev server and `vite preview` forward API traffic so the console runs on its own port
// against a locally started API (`preview.proxy` defaults to `server.proxy`).
const proxy = {
  '/api': { target: apiTarget, changeOrigin: false },
  '/trpc': { target: apiTarget, changeOrigin: false },
  '/ws': { target: apiTarget, ws: true, changeOrigin: false },
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@rollcall/contracts': here('../../libs/contracts/src/index.ts'),
    },
  },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
