import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants } from 'node:zlib';
import ts from 'typescript';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { CATALOGUE_PARTS, cataloguePart, FIRST_SCREEN_IMPORT, type Catalogue, type CataloguePart } from './src/i18n/catalogue-parts';

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

/**
 * The libraries of the first screens in few chunks: left alone, the bundler cuts what the sign-in
 * page and the accounts list load into a chunk per set of screens sharing it (some 60 files), and
 * each small file compresses on its own. Measured (docs/benchmarks.md, console-first-screen): 18 kB
 * gzip less for sign-in + accounts list, in 33 files. From the module graph: `console`, the
 * libraries the entry loads or both first screens share; then those of only one first screen
 * (`sign-in`; `accounts`: the shell and the list), named where its code is loaded
 * (`lazyWithReload(..., { firstScreen: 'accounts' })`). Only the libraries below: a module in a
 * group is kept whole even where tree-shaking would drop it (grouping our own modules brought zod
 * back through the contracts, and react-i18next's Trans); code of later screens is not touched.
 */
function firstScreenChunks() {
  const libraries = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@mui[\\/][^\\/]+|@emotion[\\/][^\\/]+|stylis|@tanstack[\\/][^\\/]+|@trpc[\\/][^\\/]+|i18next)[\\/]/;
  const rootsByPart = new Map<string, Set<string>>();
  const partOf = new Map<string, string>();
  const plugin: Plugin = {
    name: 'rollcall:first-screen-chunks',
    apply: 'build',
    enforce: 'pre', // the source as written (FIRST_SCREEN_IMPORT)
    async transform(code, id) {
      if (!/[\\/]apps[\\/]console[\\/]src[\\/].*\.tsx?$/.test(id)) return null;
      for (const [, specifier, part] of code.matchAll(FIRST_SCREEN_IMPORT)) {
        const resolved = await this.resolve(specifier, id);
        if (!resolved) this.error(`first screen ${specifier} of ${id} not found`);
        rootsByPart.set(part, (rootsByPart.get(part) ?? new Set()).add(resolved.id));
      }
      return null;
    },
    buildEnd() {
      /** the modules `roots` load with them (static imports) */
      const closure = (roots: Iterable<string>) => {
        const seen = new Set<string>();
        const queue = [...roots];
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
          if (seen.has(id)) continue;
          seen.add(id);
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      partOf.clear();
      for (const id of closure([...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry))) partOf.set(id, 'console');
      const screens = [...rootsByPart].map(([part, roots]) => [part, closure(roots)] as const);
      for (const [part, modules] of screens) {
        for (const id of modules) {
          // shared by both first screens: loaded by both, so with the entry
          if (!partOf.has(id)) partOf.set(id, screens.some(([other, others]) => other !== part && others.has(id)) ? 'console' : part);
        }
      }
    },
  };
  const group = (name: string) => ({ name, test: (id: string) => libraries.test(id) && partOf.get(id) === name });
  return { plugin, groups: [group('console'), group('sign-in'), group('accounts')] };
}

const firstScreen = firstScreenChunks();

export default defineConfig({
  plugins: [
    react(),
    pureContractSchemas(),
    catalogueParts(),
    firstScreen.plugin,
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
    rolldownOptions: { output: { codeSplitting: { groups: firstScreen.groups } } },
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
