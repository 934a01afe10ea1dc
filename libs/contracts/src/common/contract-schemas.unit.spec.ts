import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '../index';
import { auditSchemaStrings, zodExports } from './schema-audit';
import { boundedText, isEmailAddress, lineText, multilineText, uuidOf } from './text';

/**
 * Input bounds, one rule for every engine (docs/security.md, 'Input bounds' and 'Bad input that
 * loses data'; docs/adr/0019-input-bounds.md): every string of every contract schema is bounded, the bound is
 * checked before any pattern, every text refuses control characters and unpaired surrogates, every
 * date is a real one. linear-patterns.unit.spec.ts checks that every pattern is linear-time.
 */

const schemas = zodExports(contracts as Record<string, unknown>);

describe('every exported contract schema', () => {
  it('are many (the walk sees the real exports, not an empty module)', () => expect(schemas.length).toBeGreaterThan(150));

  it('bounds every string, checks the bound first, and holds every text to the text rule', () => {
    const findings = schemas.flatMap(([name, schema]) => auditSchemaStrings(schema, name).findings);
    expect(findings.map((finding) => `${finding.rule}: ${finding.path} (${finding.detail})`)).toEqual([]);
  });

  // the walk itself: each rule is found where it is broken, so the test above cannot pass by seeing nothing
  it.each([
    ['an unbounded string', z.object({ name: z.string() }), 'unbounded'],
    ['an unbounded string inside a union in a record in an array', z.array(z.record(lineText('key', 9), z.union([z.number(), z.string().trim()]))), 'unbounded'],
    ['an unbounded string behind a preprocess', z.preprocess((value) => value, z.string().optional()), 'unbounded'],
    ['a pattern before the bound', z.string().regex(/^a+$/).max(9), 'bound_not_first'],
    ['a format before the bound', z.uuid().max(36), 'bound_not_first'],
    ['a bound that does not abort', z.string().max(9).regex(/^a+$/), 'bound_not_first'],
    ['a text without the text rule', z.object({ title: z.string().max(9) }), 'no_text_rule'],
    ['a permissive pattern instead of the text rule', z.string().max(9, { abort: true }).regex(/^[^@]+$/), 'no_text_rule'],
  ])('finds %s', (_what, schema, rule) => expect(auditSchemaStrings(schema, 'S').findings.map((finding) => finding.rule)).toContain(rule));

  it.each([
    ['a bounded text', boundedText('Title', 9)],
    ['a UUID', uuidOf('id')],
    ['a format behind a bounded string', lineText('IP', 64).pipe(z.union([z.ipv4(), z.ipv6()]))],
  ])('accepts %s', (_what, schema) => expect(auditSchemaStrings(schema, 'S').findings).toEqual([]));
});

/** a megabyte that would have cost the old patterns quadratic time, with a NUL for good measure */
const MEGABYTE = `${'a'.repeat(512 * 1024)}@${'a.'.repeat(256 * 1024)}\u0000`;

/** the top-level fields of an object schema that take text */
function textFields(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { _zod: { def: { shape?: Record<string, z.ZodType>; in?: z.ZodType } } })._zod.def;
  const object = shape.shape ?? (shape.in as unknown as { _zod: { def: { shape?: Record<string, z.ZodType> } } } | undefined)?._zod.def.shape;
  if (!object) throw new Error('not an object schema');
  // a field takes text when a megabyte of it fails for another reason than its type
  return Object.keys(object).filter((key) => object[key].safeParse(MEGABYTE).error?.issues.some((issue) => issue.code !== 'invalid_type' && issue.code !== 'invalid_union' && issue.code !== 'invalid_value'));
}

const tooBigAt = (schema: z.ZodType, input: Record<string, unknown>, field: string) =>
  schema.safeParse(input).error?.issues.some((issue) => issue.path.join('.') === field && issue.code === 'too_big') ?? false;

describe('a megabyte in every text field', () => {
  const accountId = '0193a9c4-0000-7000-8000-000000000001';
  it.each<[string, z.ZodType, Record<string, unknown>]>([
    ['ZCreateAccountInput', contracts.ZCreateAccountInput, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', username: 'ada', password: 'correct horse' }],
    ['ZUpdateAccountProfileInput', contracts.ZUpdateAccountProfileInput, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' }],
    ['ZCreateOrganizationInput', contracts.ZCreateOrganizationInput, { title: 'Engines' }],
    ['ZPolicyInput', contracts.ZPolicyInput, { title: 'Staff', min_length: 8, min_strength: 2, lockout: 5, lockout_duration: 60 }],
    ['ZCreateAccessTokenInput', contracts.ZCreateAccessTokenInput, { title: 'CI', forever: true, permissions: ['accounts:read'], account_id: accountId }],
    ['ZCreateApplicationInput', contracts.ZCreateApplicationInput, { title: 'CRM' }],
    ['ZAuthenticateInput', contracts.ZAuthenticateInput, { username: 'ada', password: 'secret' }],
    ['ZRegisterReaderInput', contracts.ZRegisterReaderInput, { name: 'Front', door: 'Main', role: 'door' }],
    ['ZAuditEventsInput', contracts.ZAuditEventsInput, {}],
  ])('%s refuses it as too big, before any pattern', (name, schema, valid) => {
    expect(schema.safeParse(valid).success, `${name}: the valid sample parses`).toBe(true);
    const fields = textFields(schema);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) {
      const started = performance.now();
      expect(tooBigAt(schema, { ...valid, [field]: MEGABYTE }, field), `${name}.${field}`).toBe(true);
      // printed, not asserted: the suite never asserts on wall-clock time
      console.log(`${name}.${field}: 1 MB refused in ${(performance.now() - started).toFixed(2)} ms`);
    }
  });
});

describe('what a text may hold', () => {
  const fieldsOf = (schema: z.ZodType, input: unknown) => Object.keys(z.flattenError(schema.safeParse(input).error ?? new z.ZodError([])).fieldErrors);
  const organization = (title: string, description?: string) => contracts.ZCreateOrganizationInput.safeParse({ title, description });

  it.each([
    ['a NUL', 'Engi\u0000nes'],
    ['a lone high surrogate', 'Engines \ud800'],
    ['a lone low surrogate', '\udc00 Engines'],
    ['a surrogate pair reversed', 'Engines \udc00\ud800'],
    ['an escape', 'Engines \u001b[31m'],
    ['a tab in a single-line text', 'Engi\tnes'],
    ['a line break in a single-line text', 'Engi\nnes'],
  ])('refuses %s, naming the field and the rule', (_what, title) => {
    const result = organization(title);
    expect(result.success).toBe(false);
    expect(z.flattenError(result.error!).fieldErrors).toEqual({ title: [expect.stringMatching(/^Title (may not contain control characters|must be well-formed text)/)] });
  });

  it('takes tab and line breaks in a multi-line text, and emoji (surrogate pairs) anywhere', () => {
    expect(organization('Engines 🚂', 'First line\r\n\tsecond line 🚂').success).toBe(true);
    expect(fieldsOf(contracts.ZCreateOrganizationInput, { title: 'Engines', description: 'a\u0000b' })).toEqual(['description']);
  });

  it('holds every field of an account to it at once', () => {
    const result = contracts.ZCreateAccountInput.safeParse({ first_name: 'A\u0000', last_name: '\ud800', email: 'ada@example.org', username: 'ada', password: 'pass\u0000word' });
    expect(Object.keys(z.flattenError(result.error!).fieldErrors).sort()).toEqual(['first_name', 'last_name', 'password']);
  });

  it('bounds multi-line text too', () => expect(multilineText('Notes', 5).safeParse('a\nbcdef').error?.issues[0].code).toBe('too_big'));

  // reviews R24b F4 and R24c G5: what makes a name read otherwise than it is, or show as blank
  it.each([
    ['a right-to-left override', '\u202Eadmin'],
    ['an isolate', 'Ada\u2066Lovelace\u2069'],
    ['a right-to-left mark', 'Ada\u200F'],
    ['a zero-width space', 'x\u200By'],
    ['a word joiner', 'ad\u2060min'],
    ['a soft hyphen', 'ad\u00ADmin'],
    ['a Hangul filler (a blank-looking name)', '\u3164'],
    ['a C1 control (NEL)', 'Ada\u0085'],
    ['DEL', 'Ada\u007F'],
    ['a joiner between ASCII letters', 'ad\u200Dmin'],
    ['a non-joiner at the start', '\u200Cadmin'],
    ['a stray tag character', 'admin\u{E0041}'],
    ['a line separator in a single-line text', 'Ad\u2028min'],
  ])('refuses %s in a name, naming the field and the rule', (_what, title) => {
    const result = organization(title);
    expect(result.success).toBe(false);
    expect(z.flattenError(result.error!).fieldErrors).toEqual({ title: [expect.stringMatching(/^Title may not contain control characters/)] });
  });

  it.each([
    ['Persian with a non-joiner', 'می\u200Cخواهم'],
    ['Hindi with a joiner', 'क्\u200Dष'],
    ['an emoji sequence with joiners', 'Team 👩\u200D💻'],
    ['a subdivision flag (tag characters after the black flag)', 'Scotland 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'],
    ['Arabic and Hebrew', 'مرحبا שלום'],
  ])('takes %s', (_what, title) => expect(organization(title).success).toBe(true));

  it('leaves passwords their invisible characters (compared, never shown; one set before the rule still signs in: R24c G3), not their C0 controls', () => {
    for (const password of ['pass\u200Eword', 'pa\u202Ess', 'ad\u200Dmin\u2028', '\u3164\u00AD']) {
      expect(contracts.ZAuthenticateInput.safeParse({ username: 'ada', password }).success, JSON.stringify(password)).toBe(true);
      expect(contracts.ZSetPasswordInput.safeParse({ password }).success).toBe(true);
      expect(contracts.ZChangeOwnPasswordInput.safeParse({ current_password: password, new_password: password }).success).toBe(true);
    }
    expect(contracts.ZAuthenticateInput.safeParse({ username: 'ada', password: 'pass\u0000word' }).success).toBe(false);
  });
});

describe('the e-mail address', () => {
  it.each(['ada@example.org', 'ada.lovelace+rollcall@mail.example.co.uk', "o'brien@example.ie", 'a_b-c@x-y.example'])('takes %s', (address) => expect(isEmailAddress(address)).toBe(true));
  it.each(['ada', '@example.org', 'ada@', 'ada@example', 'ada@@example.org', 'a..b@example.org', '.ada@example.org', 'ada@-example.org', 'ada@example..org', 'ada lovelace@example.org', `${'a'.repeat(65)}@example.org`])(
    'refuses %s',
    (address) => expect(isEmailAddress(address)).toBe(false),
  );
  it('names it under its field', () =>
    expect(z.flattenError(contracts.ZCreateAccountInput.safeParse({ first_name: 'A', last_name: 'B', email: 'ada@example', username: 'ada', password: 'correct horse' }).error!).fieldErrors).toEqual({
      email: ['E-mail must be a valid e-mail address'],
    }));
});

describe('every date is a real one', () => {
  const account = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', username: 'ada', password: 'correct horse', expiry: true };
  const expiresAt = (expires_at: string) => contracts.ZCreateAccountInput.safeParse({ ...account, expires_at });

  it.each(['2030-13-45', '2030-02-30', '2031-02-29', '2030-04-31', '2030-00-10', '2030-1-1', '2030-02-30T10:00:00Z', '2030-13-01T10:00:00+01:00', '2030-01-01T25:00:00Z', '2030-01-01\u0000'])(
    'refuses expires_at %s under its field',
    (value) => expect(z.flattenError(expiresAt(value).error!).fieldErrors).toEqual({ expires_at: [expect.stringContaining('real date')] }),
  );

  it('takes a leap day and a date-time with a zone', () => {
    expect(expiresAt('2030-01-01').success).toBe(true);
    expect(expiresAt('2028-02-29').success).toBe(true);
    expect(expiresAt('2028-02-29T23:59:59.999+01:00').success).toBe(true);
  });

  it.each<[string, z.ZodType, Record<string, unknown>, string]>([
    ['a token expiry', contracts.ZCreateAccessTokenInput, { title: 'CI', permissions: ['accounts:read'], account_id: '0193a9c4-0000-7000-8000-000000000001', expires_at: '2030-02-30' }, 'expires_at'],
    ['a correction instant', contracts.ZCorrectSlotInput, { arrived_at: '2030-02-30T08:00:00Z', departed_at: null, reason: 'late' }, 'arrived_at'],
    ['a log range', contracts.ZArrivalsDeparturesQuery, { date_from: '2030-02-30' }, 'date_from'],
    ['a calendar range', contracts.ZCalendarRangeInput, { account_id: '0193a9c4-0000-7000-8000-000000000001', from: '2030-02-28', to: '2030-02-30' }, 'to'],
    ['an audit filter', contracts.ZAuditEventsInput, { from: '2030-02-30T00:00:00Z' }, 'from'],
    ['a month', contracts.ZCalendarQuery, { date: '2030-13' }, 'date'],
    ['a reader scan', contracts.ZReaderScanPost, { card_uid: '04A1B2C3', sequence: 1, device_time: '2030-02-30T08:00:00Z', sent_at: '2030-01-01T08:00:00Z' }, 'device_time'],
    ['a birth date claim', contracts.ZAccountClaimsInput, { claims: { birthdate: '1990-02-30' } }, 'claims.birthdate'],
  ])('refuses an impossible day in %s', (_what, schema, input, field) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });
});

describe('a body with several broken rules', () => {
  it('POST account {} names every missing field, the password included', () => {
    const result = contracts.ZCreateAccountInput.safeParse({});
    expect(Object.keys(z.flattenError(result.error!).fieldErrors).sort()).toEqual(['email', 'first_name', 'last_name', 'password', 'username']);
  });

  it('a token without expiry and with a broken title names both', () => {
    const result = contracts.ZCreateAccessTokenInput.safeParse({ title: '', permissions: ['accounts:read'], account_id: 'nope' });
    expect(Object.keys(z.flattenError(result.error!).fieldErrors).sort()).toEqual(['account_id', 'expires_at', 'title']);
  });
});
