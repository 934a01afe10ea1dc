import fc from 'fast-check';

/**
 * fast-check arbitraries for the request fuzzer (fuzz-requests.int.spec.ts): values drawn from a
 * JSON Schema (the OpenAPI document's, or a tRPC input's), mostly valid, sometimes at a boundary,
 * sometimes hostile, at every level of a body.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
}

/**
 * Strings an attacker tries: injections, traversal, encodings, control characters, huge and odd
 * numbers written as text. None looks like a stack frame or names node_modules, so an answer
 * echoing one back is not taken for a leak.
 */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\t\n',
  "' OR '1'='1",
  "'; DROP TABLE accounts_v2; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  '\u0000',
  '\u0000admin',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '𝕳𝖊𝖑𝖑𝖔 🦄👩‍👩‍👧‍👦',
  'Ω≈ç√∫˜µ≤≥÷',
  '\u00ad\u200b\ufeff',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9007199254740993',
  '-9223372036854775809',
  '0x1F',
  'true',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '[object Object]',
  'rc_0000000000000000000000000000000000000000',
  'rcr_0000000000000000000000000000000000000000',
  'a'.repeat(256),
  'a'.repeat(5000),
  '\u00e9'.repeat(2000),
  '2026-02-30',
  '2026-13-01T25:61:61Z',
  '0000-00-00',
  '+275760-09-13T00:00:00.001Z',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'user@@example..com',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

/** path segments that try to escape the route or break the decoder; sent as typed, not encoded */
export const RAW_PATH_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%00', '..%2f..%2fetc%2fpasswd', '%2e%2e', ';', 'a;b=c', '%252e', 'a'.repeat(3000), '%F0%9F%A6%84', '%C0%AE'];

const deepNesting = (depth: number): unknown => (depth === 0 ? 1 : { a: deepNesting(depth - 1) });

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -1, 1.5, -0, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[[]]], JSON.parse('{"__proto__": {"admin": true}}'), { constructor: { prototype: { admin: true } } }) },
  { weight: 1, arbitrary: fc.constantFrom(deepNesting(200), Array.from({ length: 2000 }, (_, i) => i), Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]))) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** a value of a schema's own type, mostly inside its limits */
function valid(schema: JsonSchema, ids: string[], name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((alternative) => value(alternative, ids, name, depth)));
  if (schema.allOf?.length) return value(schema.allOf[0], ids, name, depth);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => valid({ ...schema, type }, ids, name, depth)));
  const idLike = /(^|_)id$|^id$|organization$|account$/i.test(name);
  switch (types[0]) {
    case 'string': {
      if (idLike || schema.format === 'uuid') return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: fc.uuid() });
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date') return fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (schema.format === 'date-time') return fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'time') return fc.constantFrom('08:00', '17:30', '23:59:59', '00:00');
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      return fc.string({ minLength: Math.min(schema.minLength ?? 0, maxLength), maxLength });
    }
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -5, -1_000_000), max: Math.min(schema.maximum ?? 100, 1_000_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(value(schema.items ?? {}, ids, name, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object': {
      if (depth > 4 || !schema.properties) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const properties = Object.fromEntries(Object.entries(schema.properties).map(([key, property]) => [key, value(property, ids, key, depth + 1)]));
      return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** just outside (or exactly at) a schema's limits */
function boundary(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const values: unknown[] = ['', 0, -1, null];
  if (types.includes('string')) {
    if (schema.maxLength !== undefined) values.push('x'.repeat(schema.maxLength), 'x'.repeat(schema.maxLength + 1), ' '.repeat(schema.maxLength + 1));
    if (schema.minLength !== undefined && schema.minLength > 0) values.push('x'.repeat(schema.minLength - 1));
  }
  if (types.includes('integer') || types.includes('number')) {
    if (schema.minimum !== undefined) values.push(schema.minimum, schema.minimum - 1, schema.minimum - 0.5);
    if (schema.maximum !== undefined) values.push(schema.maximum, schema.maximum + 1, schema.maximum + 0.5);
    values.push(2 ** 53 + 1, -(2 ** 53) - 1, 0.1, 1e21);
  }
  if (types.includes('array')) values.push(Array.from({ length: (schema.maxItems ?? 100) + 1 }, () => 'x'), [undefined]);
  return fc.constantFrom(...values);
}

/** mostly valid, sometimes a boundary, sometimes hostile: at every level, so one bad field hides among good ones */
export function value(schema: JsonSchema, ids: string[], name = '', depth = 0): fc.Arbitrary<unknown> {
  // about half of a five-field body is valid throughout, so calls get past validation into the handlers too
  return fc.oneof({ weight: 16, arbitrary: valid(schema, ids, name, depth) }, { weight: 1, arbitrary: boundary(schema) }, { weight: 1, arbitrary: hostileValue });
}

/** a query string value as a browser or script would write it */
export const asQueryText = (item: unknown): string => (typeof item === 'string' ? item : JSON.stringify(item) ?? '');

/** encodeURIComponent, with lone surrogates (which it cannot encode) replaced as a browser would */
export const encode = (text: string): string => encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
