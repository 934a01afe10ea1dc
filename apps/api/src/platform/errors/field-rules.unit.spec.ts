import { FIELD_RULE_CODES, ZChangeOwnPasswordInput, ZCreateAccountInput, ZUpdateOwnProfileInput, fieldRule } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
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
});
