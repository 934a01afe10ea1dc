import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as contracts from '../index';
import { auditSchemaStrings, zodExports, type TStringPattern } from './schema-audit';

/**
 * Only linear-time patterns (docs/security.md 'Input bounds'; docs/adr/0019-input-bounds.md): every regular
 * expression of the code that reads input (libs/contracts, libs/domain, apps/api) and of every
 * contract schema is checked by recheck, which finds exponential and polynomial backtracking (the
 * quadratic e-mail pattern an outside review found among them). A length bound before a pattern limits the
 * damage; a linear pattern removes it.
 */

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const schemas = zodExports(contracts as Record<string, unknown>);

/** Every regular-expression literal of the code that reads input, with where it is. */
function sourcePatterns(): { where: string; pattern: string; flags: string; dynamic?: boolean }[] {
  const found: { where: string; pattern: string; flags: string; dynamic?: boolean }[] = [];
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'node_modules' && name !== 'dist') walk(path);
      } else if (path.endsWith('.ts') && !path.endsWith('.spec.ts') && !path.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const directory of ['libs/contracts/src', 'libs/domain/src', 'apps/api/src']) walk(join(root, directory));
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const where = `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText();
        const end = text.lastIndexOf('/');
        found.push({ where, pattern: text.slice(1, end), flags: text.slice(end + 1) });
      } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText() === 'RegExp') {
        const [first, second] = node.arguments ?? [];
        if (first && ts.isStringLiteralLike(first)) found.push({ where, pattern: first.text, flags: second && ts.isStringLiteralLike(second) ? second.text : '' });
        else found.push({ where, pattern: node.getText(), flags: '', dynamic: true });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/**
 * Patterns that recheck calls polynomial but that never see a request: each with why. A new entry
 * needs the same reason; anything reading a request must be linear.
 */
const NOT_REQUEST_INPUT: Record<string, string> = {
  '[/\\\\]+$': "the data directory's trailing slashes, from the operator's environment (app-config.ts)",
  '\\/+$': "ROLLCALL_PUBLIC_URL's trailing slashes, from the operator's environment (app-config.ts)",
  '\\S*\\/activate\\/[A-Za-z0-9_-]+': 'mail bodies we wrote ourselves before amendment 1, rewritten once at start (mail-outbox.ts)',
  'new RegExp(this.allFilterRegex)': "KurrentDB's $all filter, built from our own stream prefixes (kurrentdb-encoding.ts)",
};

describe('every pattern', { timeout: 120_000 }, () => {
  const fromSource = sourcePatterns();
  const fromSchemas: TStringPattern[] = schemas.flatMap(([name, schema]) => auditSchemaStrings(schema, name).patterns);

  it('finds the patterns of the code (the scan is not empty)', () => {
    expect(fromSource.length).toBeGreaterThan(50);
    expect(fromSchemas.length).toBeGreaterThan(5);
  });

  it('of libs/contracts, libs/domain and apps/api, and in every schema, runs in linear time (recheck)', () => {
    const unique = new Map<string, string>();
    for (const { where, pattern, flags, dynamic } of fromSource) if (!dynamic) unique.set(`/${pattern}/${flags}`, where);
    for (const { path, pattern } of fromSchemas) unique.set(`/${pattern.source}/${pattern.flags}`, path);
    const started = performance.now();
    const slow: string[] = [];
    for (const [literal, where] of unique) {
      const end = literal.lastIndexOf('/');
      const [pattern, flags] = [literal.slice(1, end), literal.slice(end + 1)];
      if (NOT_REQUEST_INPUT[pattern]) continue;
      const diagnostics = checkSync(pattern, flags);
      if (diagnostics.status !== 'safe') slow.push(`${where}: ${literal} is ${diagnostics.status}${diagnostics.status === 'vulnerable' ? ` (${diagnostics.complexity.type}, e.g. ${JSON.stringify(diagnostics.attack.pattern)})` : ''}`);
    }
    console.log(`recheck: ${unique.size} patterns in ${Math.round(performance.now() - started)} ms`);
    expect(slow).toEqual([]);
  });

  it('is a literal where it is built at run time, or known not to read a request', () => {
    const dynamic = fromSource.filter((found) => found.dynamic && !NOT_REQUEST_INPUT[found.pattern]);
    expect(dynamic.map((found) => `${found.where}: ${found.pattern}`)).toEqual([]);
  });
});

