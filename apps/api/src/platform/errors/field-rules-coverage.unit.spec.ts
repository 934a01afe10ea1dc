import * as contracts from '@rollcall/contracts';
import { FIELD_RULE_CODES, isFieldRuleCode } from '@rollcall/contracts';
import { decideOrganization, ORGANIZATION_LIMITS, type OrganizationCommand } from '@rollcall/domain';
import type { ZodError } from 'zod';
import { describe, expect, it } from 'vitest';
import { mapError } from './api-error';
import { ruleOfIssue } from './field-rules';

/**
 * Every field error names the rule it breaks (issue 21 item 6): a console translates the rule's code
 * and parameters, and `invalid` leaves it only "is not valid". This walks every schema of
 * libs/contracts: each custom check must name its rule, and bad values sent to every input schema
 * may answer `invalid` only where no code can say more (EXCEPTIONS, each with its reason).
 */

type Issue = ZodError['issues'][number];
interface Node {
  _zod: { def: Record<string, unknown> & { type: string; checks?: Node[]; check?: string; fn?: unknown; params?: { rule?: unknown } } };
}
type Schema = Node & { safeParse: (input: unknown) => { success: boolean; error?: ZodError } };
const isZod = (value: unknown): value is Node => typeof value === 'object' && value !== null && '_zod' in value && typeof (value as Node)._zod?.def === 'object';
const schemas: Array<[string, Schema]> = Object.entries(contracts as Record<string, unknown>).flatMap(([name, value]) => (isZod(value) ? [[name, value as Schema] as [string, Schema]] : []));

/** the inputs we take (answer schemas describe what we send; nobody is told their rules) */
const isInput = (name: string) => /(Input|Query|Body|Filter)$/.test(name) || ['ZReaderScanBatch', 'ZReaderHealthReport', 'ZCardUid', 'ZIpRestriction', 'ZIsoDate'].includes(name);

/** every custom check of a schema, where it sits: a refine keeps its function and params, a superRefine neither */
function customChecks(schema: unknown, name: string): Array<{ path: string; check: Node; refine: boolean }> {
  const found: Array<{ path: string; check: Node; refine: boolean }> = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, path: string): void => {
    if (!isZod(node) || seen.has(node)) return;
    seen.add(node);
    const def = node._zod.def;
    for (const check of def.checks ?? []) if (check._zod.def.check === 'custom') found.push({ path, check, refine: typeof check._zod.def.fn === 'function' });
    const child = (value: unknown, suffix: string) => visit(value, `${path}${suffix}`);
    switch (def.type) {
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) child(value, `.${key}`);
        return;
      case 'array':
        return child(def.element, '[]');
      case 'record':
        child(def.keyType, '{key}');
        return child(def.valueType, '{value}');
      case 'union':
        return (def.options as unknown[]).forEach((option, index) => child(option, `|${index}`));
      case 'intersection':
        child(def.left, '&0');
        return child(def.right, '&1');
      case 'pipe':
        child(def.in, '');
        return child(def.out, '');
      case 'lazy':
        return child((def.getter as () => unknown)(), '');
      default:
        if (def.innerType) child(def.innerType, '');
    }
  };
  visit(schema, name);
  return found;
}

const validAccount = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', username: 'ada' };
const uuid = '0190d6f0-0000-7000-8000-000000000001';
const range = { start_date: '2026-11-16', end_date: '2026-11-20', start_time: '09:00', end_time: '17:00' };
const trackingStatus = { event_group_title: 'Leave', status_id: uuid, ...range };
const trackingChange = { event_id: uuid, event_group_id: uuid, title: 'Leave', status_id: uuid, ...range };

/**
 * Bad input for each whole-object check (superRefine: its issues are built as it runs, so only a run
 * shows their rules). A superRefine this table does not know fails the walk below.
 */
const SUPER_REFINE_SAMPLES: Record<string, unknown[]> = {
  ZCreateAccountInput: [
    { ...validAccount, policy: true, expiry: true },
    { ...validAccount, password: 'short', policy_id: '1' },
  ],
  ZCreateAccessTokenInput: [{ title: 'CI', permissions: ['accounts.read'], account_id: uuid }],
  ZUpdateAccessTokenInput: [{ title: 'CI', permissions: ['accounts.read'] }],
  ZImportAccountsInput: [
    { csv: [{}, {}], lines: [2] },
    { csv: [{}], lines: [2, 3] },
  ],
  'ZAccountClaimsInput.claims': [{ claims: { colour: 'blue' } }, { claims: { website: 'ftp://example.org', birthdate: '2026-02-30', name: 'x'.repeat(300) } }],
  'ZSetAccountClaimsInput.claims': [{ account_id: uuid, claims: { colour: 'blue' } }],
  ZCardUid: ['', 'XYZ', '04A', '04'],
  'ZAssignCardInput.card_uid': [{ card_uid: 'XYZ', account_id: uuid }],
  'ZDismissUnknownCardInput.card_uid': [{ card_uid: '04A' }],
  ZCreateTrackingStatusInput: [
    { ...trackingStatus, end_date: '2026-11-10' },
    { ...trackingStatus, start_date: '2026-11-31', end_time: '25:00' },
    { ...trackingStatus, start_date: '0000-01-01', end_time: '08:00' },
    { ...trackingStatus, start_time: '', end_date: '2027-12-31' },
  ],
  ZUpdateTrackingStatusInput: [{ ...trackingChange, single: true }],
  ZCalendarRangeInput: [
    { account_id: uuid, from: '2026-11-10', to: '2026-11-01' },
    { account_id: uuid, from: '2026-01-01', to: '2026-11-01' },
  ],
  ZAttendanceByViewInput: [{ account_id: uuid, selected: 'daily', date_at: '2026-11' }],
  ZAccountAttendanceInput: [{ account_id: uuid, selected: 'weekly', date_at: '2026-11' }],
  ZArrivalsDeparturesQuery: [
    { date_from: '2026-11-10', date_to: '2026-11-01' },
    { date_from: '2020-01-01', date_to: '2026-11-01' },
  ],
  ZAuditEventFilter: [{ from: '2026-11-22T10:00:00Z', to: '2026-11-22T09:00:00Z' }],
  ZAuditEventsInput: [{ from: '2026-11-22T10:00:00Z', to: '2026-11-22T09:00:00Z' }],
  ZAsOfQueryInput: [{}, { at: '2026-11-22T10:00:00Z', position: '12.12' }],
  ZEntityAsOfInput: [{ kind: 'account', id: uuid }],
};

/**
 * Where `invalid` is deliberate: no code says more, and the message says what is expected. Keyed by
 * schema and field (a superRefine by the schema's name and its place).
 */
const EXCEPTIONS: Record<string, string> = {
  // the door agent's protocol: a program reads these answers, and the message names the sequence
  ZReaderScanBatch: 'a sequence twice in one batch of a door agent (a program reads it; the message names the sequence)',
  ZReaderScanBatchFrame: 'the same batch over the reader channel',
  'ZReaderMessage|2': 'the same batch as one of the reader channel\'s messages',
  // a day or a month: two forms, neither code names both; set by the console's own navigation
  'ZAttendanceQuery.date_at': 'a day (YYYY-MM-DD) or a month (YYYY-MM): the union message names both forms',
  'ZAttendanceByViewInput.date_at': 'the same day-or-month union',
  'ZAccountAttendanceInput.date_at': 'the same day-or-month union',
  'ZStatisticsQuery.date_at': 'a month or a day in it: the union message names both forms',
  'ZStatisticsDownloadQuery.date_at': 'the same month-or-day union',
  'ZStatisticsListInput.date_at': 'the same month-or-day union',
  'ZStatisticsDownloadInput.date_at': 'the same month-or-day union',
};

/** a value none of a union's options takes because it has none of their types (text or a number, one value or a list): only a client of the API sends it */
const wrongTypeForEveryOption = (issue: Issue) =>
  issue.code === 'invalid_union' && issue.errors.length > 0 && issue.errors.every((option) => option.length > 0 && option.every((inner) => inner.code === 'invalid_type' || inner.code === 'invalid_union'));

const BAD_VALUES: unknown[] = [null, 'x', '', 1, -1, 1.5, true, [], {}, ['x'], [1], { a: 1 }, '2026-13-45', '2026-02-30', '0000-01-01', '2026-11', 'x'.repeat(70)];

function badInputs(schema: Node): unknown[] {
  let node: Node = schema;
  while (node._zod.def.type !== 'object' && isZod(node._zod.def.innerType ?? node._zod.def.in)) node = (node._zod.def.innerType ?? node._zod.def.in) as Node;
  if (node._zod.def.type !== 'object') return BAD_VALUES;
  const keys = Object.keys(node._zod.def.shape as object);
  return [...BAD_VALUES, ...BAD_VALUES.map((bad) => Object.fromEntries(keys.map((key) => [key, bad])))];
}

const invalidOf = (name: string, issues: readonly Issue[]) =>
  issues
    .filter((issue) => ruleOfIssue(issue).code === 'invalid' && !wrongTypeForEveryOption(issue))
    .map((issue) => `${name}${issue.path.length ? `.${issue.path.join('.')}` : ''}`)
    .filter((where) => !EXCEPTIONS[where] && !EXCEPTIONS[where.replace(/\.\d+(\.|$)/g, '$1')]);

describe('every field error names its rule', () => {
  const all = schemas.flatMap(([name, schema]) => customChecks(schema, name));

  it('each refine of every schema names a rule more precise than invalid', () => {
    const unnamed = all.filter(({ check, refine }) => refine && (!isFieldRuleCode(check._zod.def.params?.rule) || check._zod.def.params?.rule === 'invalid'));
    expect([...new Set(unnamed.map(({ path }) => path))]).toEqual([]);
  });

  it('each superRefine is the text rule (which names its rules) or has bad samples below, or a reason', () => {
    const unknown = all.filter(({ check, refine }) => !refine && !contracts.isTextRule(check)).map(({ path }) => path);
    expect([...new Set(unknown)].filter((path) => !(path in SUPER_REFINE_SAMPLES) && !(path in EXCEPTIONS))).toEqual([]);
  });

  it.each(Object.entries(SUPER_REFINE_SAMPLES))('%s: its whole-object checks answer rules, never invalid', (where, samples) => {
    const name = where.split('.')[0];
    const schema = (contracts as Record<string, unknown>)[name] as Schema;
    for (const sample of samples) {
      const parsed = schema.safeParse(sample);
      expect(parsed.success, JSON.stringify(sample)).toBe(false);
      const issues = parsed.error!.issues;
      // the sample reaches the check under test, not only a field's own rule
      expect(issues.some((issue) => issue.code === 'custom'), JSON.stringify(issues)).toBe(true);
      expect(invalidOf(name, issues), JSON.stringify(sample)).toEqual([]);
      for (const issue of issues) expect(FIELD_RULE_CODES).toContain(ruleOfIssue(issue).code);
    }
  });

  it('bad values of every kind sent to every input schema answer a rule, never invalid, and never throw', () => {
    const found = new Set<string>();
    for (const [name, schema] of schemas.filter(([name]) => isInput(name))) {
      for (const input of badInputs(schema)) {
        let parsed: ReturnType<Schema['safeParse']>;
        try {
          parsed = schema.safeParse(input);
        } catch (error) {
          found.add(`${name} throws on ${JSON.stringify(input)}: ${String(error)}`);
          continue;
        }
        if (!parsed.success) for (const where of invalidOf(name, parsed.error!.issues)) found.add(where);
      }
    }
    expect([...found].sort()).toEqual([]);
  });

  it("a domain error's further messages worded as a contracts' rule carry that rule (an organization's empty title and too long description)", () => {
    const create = { type: 'CreateOrganization', data: { title: ' ', description: 'x'.repeat(ORGANIZATION_LIMITS.descriptionMax + 1) } } as OrganizationCommand;
    let thrown: unknown;
    try {
      decideOrganization(create, { status: 'none' });
    } catch (error) {
      thrown = error;
    }
    const { error } = mapError(thrown).body;
    expect(error.code).toBe('organization.title_invalid');
    expect(error.rules).toEqual([
      // the error's own message: its code, which the console has a text for
      { field: 'title', code: 'organization.title_invalid', message: 'Title is required' },
      { field: 'description', code: 'too_long', params: { label: 'Description', max: ORGANIZATION_LIMITS.descriptionMax }, message: `Description may be at most ${ORGANIZATION_LIMITS.descriptionMax} characters` },
    ]);
  });
});
