import { FIELD_RULE_CODES, ZChangeOwnPasswordInput, ZCreateAccountInput, ZUpdateOwnProfileInput, fieldRule } from '@rollcall/contracts';
import { DomainError, assertPasswordMeetsPolicy, passwordPolicyDecider } from '@rollcall/domain';
import { z, ZodError } from 'zod';
import { describe, expect, it } from 'vitest';
import { mapError } from './api-error';

/**
 * Field errors carry a stable rule code and its parameters beside today's messages (issue 21 item 6),
 * so a console translates `{code: 'too_long', params: {label, max}}` instead of matching English.
 */

const answerTo = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected bad input');
  return mapError(parsed.error).body.error;
};

describe('the rules of bad input', () => {
  it('names each rule of each field by code and parameters, one per message, beside the unchanged fields', () => {
    const error = answerTo(ZCreateAccountInput, { first_name: 'x'.repeat(300), last_name: '', email: 'not an address', username: 'a\u0000', password: 'short', colour: 'blue' });
    expect(error.code).toBe('request.invalid');
    // every message of `fields` has its rule, in the same order
    expect(Object.entries(error.fields!).flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`))).toEqual(error.rules!.map((rule) => `${rule.field}: ${rule.message}`));
    const byField = (field: string) => error.rules!.filter((rule) => rule.field === field).map(({ code, params }) => ({ code, params }));
    expect(byField('first_name')).toEqual([{ code: 'too_long', params: { label: 'First name', max: 255 } }]);
    expect(byField('last_name')).toEqual([{ code: 'required', params: { label: 'Last name' } }]);
    expect(byField('email')).toEqual([{ code: 'email', params: { label: 'E-mail' } }]);
    expect(byField('username')).toContainEqual({ code: 'control_characters', params: { label: 'Username' } });
    expect(byField('_')).toEqual([{ code: 'unknown_fields', params: { keys: 'colour' } }]);
    for (const rule of error.rules!) expect(FIELD_RULE_CODES).toContain(rule.code);
  });

  it("keeps the order of fields when a field has issues apart (as the audit filters' checks do)", () => {
    const error = mapError(
      new ZodError([
        { code: 'custom', path: ['type'], message: 'type must be event type names' },
        { code: 'custom', path: ['actor'], message: 'actor must be a UUID' },
        { code: 'custom', path: ['type'], message: 'type may be at most 20 names' },
      ]),
    ).body.error;
    expect(Object.entries(error.fields!).flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`))).toEqual(error.rules!.map((rule) => `${rule.field}: ${rule.message}`));
  });

  it('says a missing value is required, and a number or choice by its rule', () => {
    const missing = answerTo(ZChangeOwnPasswordInput, {});
    expect(missing.rules!.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: 'current_password', code: 'required' },
      { field: 'new_password', code: 'required' },
    ]);
    const profile = answerTo(ZUpdateOwnProfileInput, { first_name: 12 });
    expect(profile.rules!.find((rule) => rule.field === 'first_name')?.code).toBe('not_text');
    expect(answerTo(z.strictObject({ locale: z.enum(['en', 'de']) }), { locale: 'fr' }).rules).toEqual([{ field: 'locale', code: 'one_of', params: { values: 'en, de' }, message: expect.any(String) }]);
    const numbers = answerTo(z.strictObject({ n: z.number().int().min(1).max(5), list: z.array(z.string().max(3)).max(1) }), { n: 9, list: ['a', 'b'] });
    expect(numbers.rules!.map(({ code, params }) => ({ code, params }))).toEqual([
      { code: 'too_large', params: { max: 5 } },
      { code: 'too_many', params: { max: 1 } },
    ]);
  });

  it('takes the rule a custom check names, and calls another custom check the field\'s own (invalid)', () => {
    const named = new ZodError([{ code: 'custom', path: ['birth_date'], message: 'Birth date must be a real date as YYYY-MM-DD', params: fieldRule('date') }]);
    expect(mapError(named).body.error.rules).toEqual([{ field: 'birth_date', code: 'date', params: { label: 'Birth date' }, message: 'Birth date must be a real date as YYYY-MM-DD' }]);
    const unnamed = new ZodError([{ code: 'custom', path: ['x'], message: 'Something only x knows' }]);
    expect(mapError(unnamed).body.error.rules).toEqual([{ field: 'x', code: 'invalid', message: 'Something only x knows' }]);
  });

  it('gives a domain error\'s own message its code, and its other messages the rule invalid', () => {
    const error = mapError(new DomainError('account.status_invalid', 'Refused', undefined, { gender: ['Gender is male or female'], email: ['Refused'] })).body.error;
    expect(error.rules).toEqual([
      { field: 'gender', code: 'invalid', message: 'Gender is male or female' },
      { field: 'email', code: 'account.status_invalid', message: 'Refused' },
    ]);
  });

  it("carries the rule and numbers the domain names for a message (a password shorter than its policy's minimum), keeping code, message and fields", () => {
    let thrown: unknown;
    try {
      assertPasswordMeetsPolicy('short', 4, { title: 'Staff', minLength: 12, minStrength: 0 });
    } catch (error) {
      thrown = error;
    }
    const mapped = mapError(thrown);
    expect(mapped.status).toBe(400);
    expect(mapped.body.error).toEqual({
      code: 'password.too_short',
      message: 'Password must be at least 12 characters under policy "Staff"',
      fields: { password: ['Password must be at least 12 characters under policy "Staff"'] },
      rules: [{ field: 'password', code: 'too_short', params: { label: 'Password', min: 12, policy: 'Staff' }, message: 'Password must be at least 12 characters under policy "Staff"' }],
    });
  });

  it("names only field-rule codes from the domain's rules: a code the contracts do not know stays the error's own", () => {
    const error = new DomainError('password.too_short', 'Too short', 'password', { password: ['Too short'] }, [{ field: 'password', message: 'Too short', code: 'no_such_rule', params: { min: 3 } }]);
    expect(mapError(error).body.error.rules).toEqual([{ field: 'password', code: 'password.too_short', message: 'Too short' }]);
  });

  it('answers every rule a password policy names with a field-rule code of the contracts', () => {
    let thrown: unknown;
    try {
      passwordPolicyDecider.decide(
        { type: 'CreatePasswordPolicy', data: { policyId: 'p', title: '', description: 'd'.repeat(300), minLength: 0, minStrength: 9, history: 0, maxAgeDays: 0, lockoutAttempts: 0, lockoutDurationSeconds: 0, createdAt: '2026-11-26T00:00:00.000Z' } },
        passwordPolicyDecider.initialState(),
      );
    } catch (error) {
      thrown = error;
    }
    const rules = mapError(thrown).body.error.rules ?? [];
    expect(rules.map((rule) => rule.code)).toEqual(['required', 'too_long', 'range', 'range', 'range', 'range', 'range']);
    for (const rule of rules) expect(FIELD_RULE_CODES).toContain(rule.code);
    expect(rules.find((rule) => rule.field === 'min_length')?.params).toEqual({ label: 'Minimum length', min: 1, max: 255 });
  });
});
