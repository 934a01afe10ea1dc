import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import the libs from source, so a test run never depends on a stale build.
const alias = {
  '@rollcall/domain': here('./libs/domain/src/index.ts'),
  '@rollcall/contracts': here('./libs/contracts/src/index.ts'),
  '@rollcall/sqlite-driver': here('./libs/sqlite-driver/src/index.ts'),
};

// Nest needs decorator metadata, which esbuild does not emit: swc compiles the test files instead.
const swcPlugin = swc.vite({
  jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
  module: { type: 'es6' },
});

export default defineConfig({
  plugins: [swcPlugin],
  resolve: { alias },
  test: {
    projects: [
      {
        plugins: [swcPlugin],
        resolve: { alias },
        test: { name: 'unit', include: ['{apps,libs}/**/src/**/*.unit.spec.ts'], environment: 'node' },
      },
      {
        plugins: [swcPlugin],
        resolve: { alias },
        test: {
          name: 'int',
          include: ['{apps,libs}/**/src/**/*.int.spec.ts', 'apps/api/test/**/*.int.spec.ts', 'e2e/contract/**/*.int.spec.ts'],
          environment: 'node',
          setupFiles: [here('./apps/api/test/setup-int.ts')],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Suites share one PostgreSQL database; each uses its own schema, but we keep files serial to
          // stay inside 2 cores and keep timings honest.
          fileParallelism: false,
        },
      },
    ],
  },
});
