import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout of docs/adr/0022, measured from the code's own imports: the platform imports no feature
 * and no file of the composition root, and the features' imports of each other form no circle (a
 * feature is taken whole, with everything it imports, by copying folders in order).
 */
const SRC = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.(spec|contract)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** the part of the house a file belongs to: `platform`, `features/<area>` or `root` */
function partOf(file: string): string {
  const [first, second] = relative(SRC, file).split('/');
  if (first === 'features') return `features/${second}`;
  return first === 'platform' ? 'platform' : 'root';
}

/** every relative import, dynamic import and `declare module` of a file, resolved against its folder */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\(?|declare module)\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]);
  return specifiers.map((specifier) => normalize(join(dirname(file), specifier)));
}

const edges = sourceFiles(SRC).flatMap((file) => importsOf(file).map((target) => ({ file: relative(SRC, file), from: partOf(file), to: partOf(target) })));

function circlesAmongFeatures(): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (from === to || !from.startsWith('features/') || !to.startsWith('features/')) continue;
    next.set(from, (next.get(from) ?? new Set()).add(to));
  }
  const circles: string[][] = [];
  const walk = (part: string, path: string[]) => {
    for (const target of next.get(part) ?? []) {
      if (target === path[0]) circles.push([...path, target]);
      else if (!path.includes(target) && target > path[0]) walk(target, [...path, target]);
    }
  };
  for (const part of next.keys()) walk(part, [part]);
  return circles;
}

describe('the two floors of apps/api/src', () => {
  it('reads the imports it judges', () => {
    expect(edges.some(({ from, to }) => from === 'root' && to.startsWith('features/'))).toBe(true);
    expect(edges.some(({ from, to }) => from.startsWith('features/') && to === 'platform')).toBe(true);
  });

  it('the platform imports no feature and nothing of the composition root', () => {
    expect(edges.filter(({ from, to }) => from === 'platform' && to !== 'platform').map(({ file, to }) => `${file} -> ${to}`)).toEqual([]);
  });

  it('no feature imports the composition root', () => {
    expect(edges.filter(({ from, to }) => from.startsWith('features/') && to === 'root').map(({ file }) => file)).toEqual([]);
  });

  it('the features import each other without a circle', () => {
    expect(circlesAmongFeatures().map((circle) => circle.join(' -> '))).toEqual([]);
  });
});
