import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console's layout (apps/console/README.md), measured from its own imports: a feature imports no
 * other feature (what several share lives in components/, lib/, live/ or paths.ts), and nothing
 * below features/ imports a feature; only the shell (router.tsx, App.tsx, layouts/) assembles them.
 */
const SRC = __dirname;
const SHELL = new Set(['router.tsx', 'App.tsx', 'main.tsx', 'layouts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `features/<name>` for a feature's file, else the top folder (or file) under src */
function partOf(file: string): string {
  const [first, second] = relative(SRC, file).split('/');
  return first === 'features' ? `features/${second}` : first;
}

const edges = sourceFiles(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\(?)\s*'(\.{1,2}\/[^']+)'/g)].map((match) => ({
    file: relative(SRC, file),
    from: partOf(file),
    to: partOf(normalize(join(dirname(file), match[1]))),
  })),
);

describe('the console layout', () => {
  it('reads the imports it judges', () => {
    expect(edges.some(({ from, to }) => from === 'router.tsx' && to.startsWith('features/'))).toBe(true);
    expect(edges.some(({ from, to }) => from.startsWith('features/') && to === 'components')).toBe(true);
  });

  it('no feature imports another feature', () => {
    expect(edges.filter(({ from, to }) => from.startsWith('features/') && to.startsWith('features/') && from !== to).map(({ file, to }) => `${file} -> ${to}`)).toEqual([]);
  });

  it('only the shell imports features', () => {
    expect(edges.filter(({ from, to }) => !from.startsWith('features/') && !SHELL.has(from) && to.startsWith('features/')).map(({ file, to }) => `${file} -> ${to}`)).toEqual([]);
  });
});
