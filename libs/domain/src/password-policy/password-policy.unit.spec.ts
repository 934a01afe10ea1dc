import { describe, expect, it } from 'vitest';
import { type DomainError, fold, underField } from '../shared';
import {
  passwordPolicyDecider,
  policyTitleReservation,
  type PasswordPolicyCommand,
  type PasswordPolicyData,
  type PasswordPolicyEvent,
  type PasswordPolicyRules,
  type PasswordPolicyUpdatedData,
} from './password-policy';
import { assertPasswordMeetsPolicy } from './password-rules';
import { givenFor } from '../../test/given';

const id = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000001';
const staff: PasswordPolicyData = {
  policyId: id,
  title: 'Staff',
  description: 'Office staff',
  minLength: 12,
  minStrength: 3,
  history: null,
  maxAgeDays: null,
  lockoutAttempts: 4,
  lockoutDurationSeconds: 3600,
  createdAt: '2026-11-22T08:00:00.000Z',
};
const created: PasswordPolicyEvent = { type: 'PasswordPolicyCreated', data: staff };
const { createdAt: _createdAt, ...staffRules } = staff;
const update = (changes: Partial<PasswordPolicyRules>): PasswordPolicyCommand => ({ type: 'UpdatePasswordPolicy', data: { ...staffRules, ...changes, updatedAt: '2026-11-23T09:00:00.000Z' } });
const create = (changes: Partial<PasswordPolicyRules>): PasswordPolicyCommand => ({ type: 'CreatePasswordPolicy', data: { ...staff, ...changes } });
const remove: PasswordPolicyCommand = { type: 'DeletePasswordPolicy', data: { policyId: id, deletedAt: '2026-11-24T10:00:00.000Z' } };

const given = givenFor(passwordPolicyDecider);

describe('password policy decider', () => {
  it('creates a policy', () => given([]).when(create({})).then([created]));

  it('refuses to create the same policy twice', () => given([created]).when(create({})).thenThrows('policy.exists'));

  it('updates a policy with the new rules and the time of the change', () => {
    const data: PasswordPolicyUpdatedData = { ...staffRules, title: 'Staff (strict)', minLength: 14, history: 5, maxAgeDays: 90, updatedAt: '2026-11-23T09:00:00.000Z' };
    given([created]).when({ type: 'UpdatePasswordPolicy', data }).then([{ type: 'PasswordPolicyUpdated', data }]);
  });

  it('records nothing when an update changes nothing', () => given([created]).when(update({})).then([]));

  it('folds updates into the state the next update compares with', () => {
    const renamed = update({ title: 'Renamed' }) as Extract<PasswordPolicyCommand, { type: 'UpdatePasswordPolicy' }>;
    given([created, { type: 'PasswordPolicyUpdated', data: renamed.data }]).when(renamed).then([]);
  });

  it('deletes a policy, naming its title so the title can be released', () =>
    given([created]).when(remove).then([{ type: 'PasswordPolicyDeleted', data: { policyId: id, title: 'Staff', deletedAt: '2026-11-24T10:00:00.000Z' } }]));

  it('refuses to update or delete a policy that does not exist', () => {
    given([]).when(update({})).thenThrows('policy.not_found');
    given([]).when(remove).thenThrows('policy.not_found');
  });

  it('refuses to update or delete a deleted policy', () => {
    const deleted: PasswordPolicyEvent = { type: 'PasswordPolicyDeleted', data: { policyId: id, title: 'Staff', deletedAt: '2026-11-24T10:00:00.000Z' } };
    given([created, deleted]).when(update({ title: 'Back' })).thenThrows('policy.not_found');
    given([created, deleted]).when(remove).thenThrows('policy.not_found');
  });

  describe('rules (the same on create and update), each naming its field', () => {
    const cases: Array<[string, Partial<PasswordPolicyRules>, string, string]> = [
      ['an empty title', { title: '' }, 'policy.title_required', 'title'],
      ['a blank title', { title: '   ' }, 'policy.title_required', 'title'],
      ['a title of 256 characters', { title: 'x'.repeat(256) }, 'policy.title_too_long', 'title'],
      ['a description of 256 characters', { description: 'x'.repeat(256) }, 'policy.description_too_long', 'description'],
      ['a minimum length of 0', { minLength: 0 }, 'policy.min_length', 'min_length'],
      ['a minimum length of 256', { minLength: 256 }, 'policy.min_length', 'min_length'],
      ['a fractional minimum length', { minLength: 6.5 }, 'policy.min_length', 'min_length'],
      ['a strength of 5', { minStrength: 5 }, 'policy.min_strength', 'min_strength'],
      ['a strength of -1', { minStrength: -1 }, 'policy.min_strength', 'min_strength'],
      ['a fractional strength', { minStrength: 2.5 }, 'policy.min_strength', 'min_strength'],
      ['a history of 0', { history: 0 }, 'policy.history', 'history'],
      ['a history of 25', { history: 25 }, 'policy.history', 'history'],
      ['a password age of 0 days', { maxAgeDays: 0 }, 'policy.max_age', 'password_age'],
      ['a password age of 3651 days', { maxAgeDays: 3651 }, 'policy.max_age', 'password_age'],
      ['a lockout of -1 attempts', { lockoutAttempts: -1 }, 'policy.lockout', 'lockout'],
      ['a lockout of 101 attempts', { lockoutAttempts: 101 }, 'policy.lockout', 'lockout'],
      ['a lockout duration of 0 seconds', { lockoutDurationSeconds: 0 }, 'policy.lockout_duration', 'lockout_duration'],
      ['a lockout duration over a day', { lockoutDurationSeconds: 86401 }, 'policy.lockout_duration', 'lockout_duration'],
      ['a number that is not a number', { lockoutDurationSeconds: Number.NaN }, 'policy.lockout_duration', 'lockout_duration'],
    ];
    for (const [label, changes, code, field] of cases) {
      it(`refuses ${label} (${field})`, () => {
        given([]).when(create(changes)).thenThrows(code, field);
        given([created]).when(update(changes)).thenThrows(code, field);
      });
    }

    it('accepts every bound', () => {
      const lowest = { title: 'x', description: '', minLength: 1, minStrength: 0, history: 1, maxAgeDays: 1, lockoutAttempts: 0, lockoutDurationSeconds: 1 };
      const highest = { title: 'y'.repeat(255), description: 'd'.repeat(255), minLength: 255, minStrength: 4, history: 24, maxAgeDays: 3650, lockoutAttempts: 100, lockoutDurationSeconds: 86400 };
      given([]).when(create(lowest)).then([{ type: 'PasswordPolicyCreated', data: { ...staff, ...lowest } }]);
      given([created]).when(update(highest)).then([{ type: 'PasswordPolicyUpdated', data: { policyId: id, ...highest, updatedAt: '2026-11-23T09:00:00.000Z' } }]);
      // history and aging switched off
      given([]).when(create({ history: null, maxAgeDays: null })).then([created]);
    });

    it('reports every broken rule at once, each under its field', () => {
      try {
        passwordPolicyDecider.decide(create({ title: '', minStrength: 7, lockoutAttempts: 500 }), fold(passwordPolicyDecider, []));
        throw new Error('accepted');
      } catch (error) {
        expect((error as DomainError).fields).toEqual({ title: ['Title is required'], min_strength: [expect.any(String)], lockout: [expect.any(String)] });
      }
    });

    it('names the rule of each broken bound with its numbers, so a console can say them in its language', () => {
      try {
        passwordPolicyDecider.decide(create({ title: '', description: 'd'.repeat(256), minLength: 0, minStrength: 7, history: 30, maxAgeDays: 0, lockoutDurationSeconds: 0 }), fold(passwordPolicyDecider, []));
        throw new Error('accepted');
      } catch (error) {
        const rules = (error as DomainError).rules;
        expect(rules).toEqual([
          { field: 'title', message: 'Title is required', code: 'required', params: { label: 'Title' } },
          { field: 'description', message: 'Description may be at most 255 characters', code: 'too_long', params: { label: 'Description', max: 255 } },
          { field: 'password_age', message: expect.any(String), code: 'range', params: { label: 'Password age', min: 1, max: 3650 } },
          { field: 'history', message: expect.any(String), code: 'range', params: { label: 'History', min: 1, max: 24 } },
          { field: 'min_length', message: 'Minimum length must be a whole number from 1 to 255', code: 'range', params: { label: 'Minimum length', min: 1, max: 255 } },
          { field: 'min_strength', message: 'Minimum strength is a score from 0 to 4', code: 'range', params: { label: 'Minimum strength', min: 0, max: 4 } },
          { field: 'lockout_duration', message: expect.any(String), code: 'range', params: { label: 'Lockout duration', min: 1, max: 86400 } },
        ]);
        // each rule belongs to a message of its field
        for (const rule of rules ?? []) expect((error as DomainError).fields?.[rule.field]).toContain(rule.message);
      }
    });
  });

  it('reserves titles case-insensitively and without surrounding spaces', () =>
    expect(policyTitleReservation('  Staff ')).toEqual(policyTitleReservation('STAFF')));
});

describe('a new password under a policy', () => {
  const policy = { title: 'Staff', minLength: 12, minStrength: 3 };
  const refusal = (password: string, strength: number) => {
    try {
      assertPasswordMeetsPolicy(password, strength, policy);
      return null;
    } catch (error) {
      return error as DomainError;
    }
  };

  it('is refused when shorter than the minimum length, naming the policy', () => {
    const error = refusal('short pass', 4);
    expect(error).toMatchObject({ code: 'password.too_short', field: 'password', message: 'Password must be at least 12 characters under policy "Staff"' });
  });

  it('names the rule with the policy\'s minimum length, and the strength with score and need', () => {
    expect(refusal('short pass', 4)?.rules).toEqual([
      { field: 'password', message: 'Password must be at least 12 characters under policy "Staff"', code: 'too_short', params: { label: 'Password', min: 12, policy: 'Staff' } },
    ]);
    expect(refusal('staffstaff12', 1)?.rules).toEqual([
      { field: 'password', message: 'Password is too weak under policy "Staff": strength 1 of 4 needed 3', code: 'too_weak', params: { label: 'Password', min: 3, score: 1, policy: 'Staff' } },
    ]);
  });

  it('keeps its rule when a form shows it under another field (new_password)', () => {
    const moved = underField(refusal('short pass', 4)!, 'new_password');
    expect(moved).toMatchObject({ code: 'password.too_short', field: 'new_password', message: 'Password must be at least 12 characters under policy "Staff"' });
    expect(moved.rules).toEqual([expect.objectContaining({ field: 'new_password', code: 'too_short', params: expect.objectContaining({ min: 12 }) })]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(refusal('🔑'.repeat(11), 4)?.code).toBe('password.too_short'); // 22 units, 11 characters
    expect(refusal('🔑'.repeat(12), 4)).toBeNull();
  });

  it('is refused when weaker than the minimum strength, naming score and need', () => {
    const error = refusal('staffstaff12', 1);
    expect(error).toMatchObject({ code: 'password.too_weak', field: 'password', message: 'Password is too weak under policy "Staff": strength 1 of 4 needed 3' });
  });

  it('is accepted when long and strong enough', () => {
    expect(refusal('a long enough pass', 3)).toBeNull();
    expect(refusal('a long enough pass', 4)).toBeNull();
  });
});
