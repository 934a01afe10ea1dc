import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isErrorCode } from '@rollcall/contracts';
import { describe, expect, it } from 'vitest';

/**
 * A DomainError's code is a plain string (libs/domain imports nothing, not even the contracts), so
 * the compiler cannot hold it to the contracts' table; this reads the sources instead. A code thrown
 * but missing from the table would be answered 400 whatever its name says, and the console could
 * not translate it.
 */
const ROOT = join(__dirname, '../../../../..');
const SOURCES = ['apps/api/src', 'libs/domain/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.(spec|contract)\.ts$/.test(entry.name) ? [path] : [];
  });
}

const CODE = `'([a-z][a-z_]*\\.[a-z][a-z_]*)'`;
/** the shapes a code is thrown or answered in */
const SHAPES = [
  // new DomainError('x.y', ...), fieldError('x.y', ...), new InteractionError('x.y', ...), apiError('x.y', ...)
  new RegExp(`\\w*(?:Error|error)\\(\\s*${CODE}`, 'g'),
  // a scan refused in a reader's answer: refused(sequence, 'x.y', ...)
  new RegExp(`\\brefused\\(\\s*[\\w.]+,\\s*${CODE}`, 'g'),
  // { code: 'x.y', ... }: a rule's violation, an answer's error
  new RegExp(`\\bcode:\\s*${CODE}`, 'g'),
  // class ... extends DomainError { constructor() { super('x.y', ...) } }
  new RegExp(`\\bsuper\\(\\s*${CODE}`, 'g'),
];
/** the codes by field a validation throws with (FIELD_CODES, CLIENT_FIELD_CODES) */
const CODES_BY_FIELD = /[A-Z_]*CODES\b[^=\n]*=\s*\{([^}]*)\}/g;

function thrownCodes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of SOURCES.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
    const text = readFileSync(file, 'utf8');
    const where = relative(ROOT, file);
    for (const shape of SHAPES) for (const [, code] of text.matchAll(shape)) if (!found.has(code)) found.set(code, where);
    for (const [, body] of text.matchAll(CODES_BY_FIELD)) for (const [, code] of body.matchAll(new RegExp(CODE, 'g'))) if (!found.has(code)) found.set(code, where);
  }
  return found;
}

describe('the error codes the code base throws', () => {
  const thrown = thrownCodes();

  it('finds them where they are thrown', () => {
    // a shape that stopped matching would make the next test pass on nothing
    expect(thrown.size).toBeGreaterThan(120);
    expect(thrown.get('account.not_found')).toBeDefined();
    expect(thrown.get('application.pkce_required')).toMatch(/application-client\.ts$/);
    expect(thrown.get('scan.sequence_reused')).toMatch(/decide-reader-scans\.ts$/);
    expect(thrown.get('rate.limited')).toBeDefined();
  });

  it('are all in the contracts table, each with its status', () => {
    expect([...thrown].filter(([code]) => !isErrorCode(code)).map(([code, file]) => `${code} (${file})`)).toEqual([]);
  });
});
