import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REST_ROUTES } from './rest-routes';

/**
 * docs/api/compat.md stays written by hand (its Request and answer columns are notes a reader needs,
 * more than a schema says), and this test holds its rows to the routes the controllers declare
 * (docs/adr/0023): a route missing from the table, a row naming no route, or a row on the wrong
 * versions fails. A row's versions: a table with a v1 answer column is v1 and v2, unless the v1 cell
 * says '(404)' or '(not on v1)'; a table without one is v2 only.
 */
const COMPAT = new URL('../../docs/api/compat.md', import.meta.url);

/** rows that are not REST routes of the API: the readers' WebSocket and the API's own documents */
const NOT_ROUTES = new Set(['GET (WebSocket) reader/ws', 'GET openapi.json', 'GET docs']);

interface Row {
  method: string;
  path: string;
  onV1: boolean;
  line: number;
}

/** `GET | account/{id}/history, team/{id}/history (ours) | ...` -> one row per method and path */
function rowsOf(markdown: string): { rows: Row[]; skipped: string[] } {
  const rows: Row[] = [];
  const skipped: string[] = [];
  let hasV1Column = false;
  markdown.split('\n').forEach((text, index) => {
    if (text.startsWith('| Method |')) {
      hasV1Column = /\| v1 answer \|/.test(text);
      return;
    }
    const cells = text.split(/(?<!\\)\|/).map((cell) => cell.trim());
    if (!/^(GET|POST|PUT|PATCH|DELETE)\b/.test(cells[1] ?? '')) return;
    if (NOT_ROUTES.has(`${cells[1]} ${cells[2]}`)) {
      skipped.push(`${cells[1]} ${cells[2]}`);
      return;
    }
    const onV1 = hasV1Column && !/^\((404|not on v1)\)/.test(cells[4] ?? '');
    const paths = cells[2]
      .split(/,\s*/)
      // a note after the path, '(ours: not in the spec)' or '(also `token/`)', and the trailing slash some clients send
      .map((path) => path.replace(/\s*\(.*$/, '').replace(/\/$/, '').trim());
    for (const method of cells[1].split(/,\s*/)) for (const path of paths) rows.push({ method, path, onV1, line: index + 1 });
  });
  return { rows, skipped };
}

describe('docs/api/compat.md', () => {
  const { rows, skipped } = rowsOf(readFileSync(COMPAT, 'utf8'));
  const routes = new Map(REST_ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]));

  it('reads the table (rows of both kinds, and the few that are no REST route)', () => {
    expect(rows.length).toBeGreaterThan(150);
    expect(rows.some((row) => row.onV1) && rows.some((row) => !row.onV1)).toBe(true);
    expect(skipped.sort()).toEqual([...NOT_ROUTES].sort());
  });

  it('lists every route the controllers declare, once', () => {
    const listed = rows.map((row) => `${row.method} ${row.path}`);
    expect([...routes.keys()].filter((route) => !listed.includes(route))).toEqual([]);
    expect(listed.filter((row, index) => listed.indexOf(row) !== index)).toEqual([]);
  });

  it('names no route the controllers do not declare', () => {
    expect(rows.filter((row) => !routes.has(`${row.method} ${row.path}`)).map((row) => `line ${row.line}: ${row.method} ${row.path}`)).toEqual([]);
  });

  it('puts each route on the versions it is served on', () => {
    const wrong = rows.filter((row) => {
      const route = routes.get(`${row.method} ${row.path}`);
      return route && route.prefixes.includes('/api/v1') !== row.onV1;
    });
    expect(wrong.map((row) => `line ${row.line}: ${row.method} ${row.path} is ${row.onV1 ? 'v1 and v2' : 'v2 only'} in the table`)).toEqual([]);
  });
});
