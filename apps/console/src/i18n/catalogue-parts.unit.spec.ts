import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_PARTS, cataloguePart, FIRST_SCREEN_IMPORT, isFirstScreenText, type Catalogue } from './catalogue-parts';
import de from './locales/de.json';
import en from './locales/en.json';

const SRC = resolve(__dirname, '..');
const catalogues: Record<'en' | 'de', Catalogue> = { en, de };

/** every text's dotted key, as i18next looks it up */
function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([name, value]) => {
    const key = prefix ? `${prefix}.${name}` : name;
    return typeof value === 'string' ? [key] : keysOf(value, key);
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveModule(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((path) => existsSync(path) && statSync(path).isFile());
}

/** the console's own modules a file imports while it loads (not `import type`, not `import()`) */
function staticImports(file: string, code: string): string[] {
  const imports = code.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/g);
  return [...imports].flatMap((match) => (match[1] ? [] : [resolveModule(file, match[2])].filter((path): path is string => !!path && /\.tsx?$/.test(path))));
}

const files = sourceFiles(SRC);
const code = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));

/** the screens whose code loads without the rest of the texts: lazyWithReload(() => import('...'), { firstScreen: '...' }) */
const firstScreenRoots = files.flatMap((file) =>
  [...(code.get(file) ?? '').matchAll(FIRST_SCREEN_IMPORT)].map((match) => resolveModule(file, match[1]) ?? `${file}: ${match[1]} not found`),
);

/** what runs before any other screen's code and texts arrive: the entry and the first screens, with what they import */
function firstScreenModules(): Set<string> {
  const seen = new Set<string>();
  const queue = [join(SRC, 'main.tsx'), ...firstScreenRoots];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file, code.get(file) ?? readFileSync(file, 'utf8')));
  }
  return seen;
}

/**
 * The texts a file names: a string that is a key (or a key's plural stem, or a group of keys), and
 * a template's fixed start up to its last dot (`errors.${code}`: every text under errors).
 */
function textsNamedIn(source: string, keys: string[]): { texts: Set<string>; unknownPrefixes: string[] } {
  const texts = new Set<string>();
  const unknownPrefixes: string[] = [];
  for (const match of source.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)) {
    const literal = match[1] ?? match[2] ?? match[3] ?? '';
    const placeholder = match[3] !== undefined ? literal.indexOf('${') : -1;
    let named: (key: string) => boolean;
    if (placeholder === 0) {
      // `${texts}.fields.title`: a key whose start this scan cannot know
      if (/^\$\{[^}]+\}\.[A-Za-z]/.test(literal)) unknownPrefixes.push(literal);
      continue;
    } else if (placeholder > 0) {
      const start = literal.slice(0, literal.lastIndexOf('.', placeholder) + 1);
      if (!start) continue;
      named = (key) => key.startsWith(start);
    } else {
      if (!/^[A-Za-z]+(\.[\w-]+)+$/.test(literal)) continue;
      named = (key) => key === literal || key.startsWith(`${literal}.`) || key.startsWith(`${literal}_`);
    }
    for (const key of keys) if (named(key)) texts.add(key);
  }
  return { texts, unknownPrefixes };
}

describe('the catalogue parts', () => {
  it.each(['en', 'de'] as const)('hold every text of %s exactly once', (language) => {
    const all = keysOf(catalogues[language]);
    const parts = CATALOGUE_PARTS.map((part) => keysOf(cataloguePart(catalogues[language], part)));
    expect(parts.flat().sort()).toEqual([...all].sort());
    expect(parts.map((keys) => keys.length)).toEqual(CATALOGUE_PARTS.map((part) => all.filter((key) => isFirstScreenText(key) === (part === 'first-screen')).length));
    // both parts hold something: the split is real
    expect(parts.every((keys) => keys.length > 0)).toBe(true);
  });

  it('find the first screens and the texts their code names', () => {
    expect(firstScreenRoots.map((file) => relative(SRC, file)).sort()).toEqual(['features/accounts/AccountsPage.tsx', 'features/auth/IndexPage.tsx', 'features/auth/SignInPage.tsx', 'layouts/AdminLayout.tsx']);
    const keys = keysOf(en);
    expect([...textsNamedIn(code.get(join(SRC, 'features/auth/SignInForm.tsx')) ?? '', keys).texts]).toContain('signIn.submit');
    // describeError's `errors.${code}` names every error text
    const errors = textsNamedIn(code.get(join(SRC, 'api/api-error.ts')) ?? '', keys).texts;
    expect(keys.filter((key) => key.startsWith('errors.')).every((key) => errors.has(key))).toBe(true);
  });

  it('ship every text the first screens name in the first part', () => {
    const keys = keysOf(en);
    const outside: string[] = [];
    const unknown: string[] = [];
    for (const file of firstScreenModules()) {
      const { texts, unknownPrefixes } = textsNamedIn(code.get(file) ?? '', keys);
      outside.push(...[...texts].filter((key) => !isFirstScreenText(key)).map((key) => `${relative(SRC, file)}: ${key}`));
      unknown.push(...unknownPrefixes.map((template) => `${relative(SRC, file)}: ${template}`));
    }
    // a text named here but not in FIRST_SCREEN_TEXTS would show as its key on the first screen
    expect(outside).toEqual([]);
    expect(unknown).toEqual([]);
  });

  it('load the rest with every other screen and dialog: the console loads its own code later only through lazyWithReload', () => {
    const direct = files.flatMap((file) =>
      [...(code.get(file) ?? '').matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)]
        .filter((match) => !/(lazyWithReload|lazyDialog)\(/.test((code.get(file) ?? '').slice(Math.max(0, (match.index ?? 0) - 160), match.index)))
        .map((match) => `${relative(SRC, file)}: import('${match[1]}')`),
    );
    expect(direct).toEqual([]);
  });
});
