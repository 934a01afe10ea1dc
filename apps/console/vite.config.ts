import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants } from 'node:zlib';
import ts from 'typescript';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { CATALOGUE_PARTS, cataloguePart, type Catalogue, type CataloguePart } from './src/i18n/catalogue-parts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const apiTarget = process.env.ROLLCALL_API_URL ?? 'http://127.0.0.1:3000';

// The dev server and `vite preview` forward API traffic so the console runs on its own port
// against a locally started API.
const proxy = {
  '/api': { target: apiTarget },
  '/trpc': { target: apiTarget },
  '/ws': { target: apiTarget, ws: true },
};

/**
 * The console takes only constants (page sizes, sort fields, error codes) from @rollcall/contracts
 * at run time; the zod schemas beside them are for the API. Module-level calls look like side
 * effects to the bundler, so each top-level `const X = ...` of contracts that calls something while
 * the module loads (a schema, or an object of schemas) is wrapped in a pure-annotated IIFE: unused schemas, and with them zod (~22 kB gzip), drop out of the bundle.
 */
/** whether evaluating `node` calls something (calls inside functions it defines run later, not at load) */
function callsAtLoad(node: ts.Node): boolean {
  if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) return true;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return false;
  return ts.forEachChild(node, (child) => (callsAtLoad(child) ? true : undefined)) ?? false;
}

function pureContractSchemas(): Plugin {
  const contractsSource = /[\\/]libs[\\/]contracts[\\/]src[\\/].*\.ts$/;
  return {
    name: 'rollcall:pure-contract-schemas',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!contractsSource.test(id)) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const spans: Array<[number, number]> = [];
      for (const statement of file.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          const init = declaration.initializer;
          // a call, or a literal with calls inside (`const shape = { title: z.string() }`)
          if (init && !ts.isArrowFunction(init) && !ts.isFunctionExpression(init) && callsAtLoad(init)) spans.push([init.getStart(file), init.getEnd()]);
        }
      }
      if (!spans.length) return null;
      let out = code;
      for (const [start, end] of spans.reverse()) {
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/**
 * `virtual:rollcall-catalogue/<language>/<part>`: one part of a language's texts, selected by key
 * prefix from src/i18n/locales/<language>.json (src/i18n/catalogue-parts.ts) when the module is
 * built, so each catalogue stays one file while the first screen ships only its own texts.
 */
function catalogueParts(): Plugin {
  const prefix = 'virtual:rollcall-catalogue/';
  const resolved = `\0${prefix}`;
  return {
    name: 'rollcall:catalogue-parts',
    resolveId(id) {
      // texts-<language>-<part>: the chunk's name
      return id.startsWith(prefix) ? `${resolved}texts-${id.slice(prefix.length).replace('/', '-')}` : null;
    },
    load(id) {
      if (!id.startsWith(resolved)) return null;
      const [, language, part] = /^texts-([^-]+)-(.+)$/.exec(id.slice(resolved.length)) ?? [];
      if (!/^[a-z]{2}$/.test(language ?? '') || !(CATALOGUE_PARTS as readonly string[]).includes(part ?? '')) this.error(`unknown catalogue part ${id.slice(1)}`);
      const file = here(`./src/i18n/locales/${language}.json`);
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Catalogue;
      return `export default ${JSON.stringify(cataloguePart(catalogue, part as CataloguePart))};`;
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    pureContractSchemas(),
    catalogueParts(),
    // a brotli and a gzip copy of each script, style and page, served as they are by the API
    // (http/http-pipeline.ts serveConsole): compressed once at build, at the highest levels
    compression({
      include: /\.(js|css|html|svg|json)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      algorithms: [defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
    }),
  ],
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
