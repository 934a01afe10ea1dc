import { describe, expect, it } from 'vitest';
import { changesBetween, describeEvent, flattenState, idsIn, sentenceOfType } from './entity-history';

const sales = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const editor = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
const admin = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d';
const names = new Map([
  [sales, 'Sales'],
  [editor, 'Editor'],
  [admin, 'admin'],
]);

describe('entity history, pure parts', () => {
  it('flattens a state into labelled texts, names for ids (keys too), secrets left out', () => {
    const state = { status: 'created', id: admin, firstName: 'Ada', passwordHash: '$argon2id$...', passwordHistory: ['x'], rolesByOrganization: { [sales]: [editor] }, emails: [{ value: 'ada@example.com', type: 'work' }], birthDate: null };
    expect([...flattenState(state, names)]).toEqual([
      ['status', 'created'],
      ['id', admin],
      ['first name', 'Ada'],
      ['roles by organization › Sales', 'Editor'],
      ['emails', 'ada@example.com work'],
    ]);
  });

  it('shows an account status by its name, not its number', () => {
    expect([...flattenState({ statusId: 2 }, names)]).toEqual([['status', 'Disabled']]);
    expect(describeEvent({ type: 'AccountStatusChanged', data: { statusId: 3 }, actor: admin, actorKind: 'account', sourceIp: null }, names)).toBe('Status changed to Password change required by admin');
  });

  it('tells a person’s attendance in words, times in their zone', () => {
    const scan = { door: 'Main entrance', at: '2026-11-20T07:14:02.000Z' };
    expect(describeEvent({ type: 'ArrivalRecorded', data: { scan }, actor: admin, actorKind: 'reader', sourceIp: null }, names, 'Europe/Berlin')).toBe('Arrived at Main entrance, 20.11.2026 08:14:02 (Europe/Berlin) by admin');
  });

  it('diffs two flattened states: changed, added and removed fields', () => {
    const before = new Map([
      ['title', 'Sales'],
      ['description', 'old'],
    ]);
    const after = new Map([
      ['title', 'Sales EU'],
      ['roles › Editor', 'Editor'],
    ]);
    expect(changesBetween(before, after)).toEqual([
      { field: 'title', before: 'Sales', after: 'Sales EU' },
      { field: 'roles › Editor', before: null, after: 'Editor' },
      { field: 'description', before: 'old', after: null },
    ]);
    expect(changesBetween(after, after)).toEqual([]);
  });

  it('says what happened in plain words, by whom and from where', () => {
    expect(describeEvent({ type: 'RoleGrantedToAccount', data: { roleId: editor, organizationId: sales }, actor: admin, actorKind: 'account', sourceIp: '10.0.0.4' }, names)).toBe('Role Editor granted in Sales by admin from 10.0.0.4');
    expect(describeEvent({ type: 'AccountProfileUpdated', data: {}, actor: 'bootstrap', actorKind: 'system', sourceIp: null }, names)).toBe('Account profile updated by the system');
    expect(sentenceOfType('OrganizationDetailsChanged')).toBe('Organization details changed');
  });

  it('finds the ids worth naming, in values and keys, never in secrets', () => {
    expect([...idsIn({ rolesByOrganization: { [sales]: [editor] }, tokenHash: admin, other: 'text' })].sort()).toEqual([sales, editor].sort());
  });
});
