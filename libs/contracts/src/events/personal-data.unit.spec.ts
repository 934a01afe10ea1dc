import { describe, expect, it } from 'vitest';
import { erasePersonalData, erasedEmail, erasedUsername, PERSONAL_DATA_RULES } from './personal-data';

describe('personal data rules (docs/adr/0015)', () => {
  it('erases exactly the fields each rule seals, keeping the rest of the payload', () => {
    for (const [type, rule] of Object.entries(PERSONAL_DATA_RULES)) {
      expect(Object.keys(rule.erased('a-1')).sort(), type).toEqual([...rule.fields].sort());
    }
  });

  it('reads an erased creation as an erased person, unique per account', () => {
    const created = { accountId: 'a-1', username: 'ada', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', statusId: 1 };
    expect(erasePersonalData('AccountCreated', created)).toEqual({ accountId: 'a-1', username: erasedUsername('a-1'), email: erasedEmail('a-1'), firstName: 'Erased', lastName: 'person', statusId: 1 });
    expect(erasedUsername('a-1')).not.toBe(erasedUsername('a-2'));
  });

  it('leaves events without personal data as they are', () => {
    const joined = { accountId: 'a-1', organizationId: 'o-1', at: 't' };
    expect(erasePersonalData('AccountJoinedOrganization', joined)).toBe(joined);
  });
});
