import { HttpException, Logger } from '@nestjs/common';
import { ERROR_CODES, ERROR_STATUS, isErrorCode } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventStoreUnavailableError, ReservationTakenError, WrongExpectedVersionError } from '../event-store/event-store.port';
import { mapError } from './api-error';

// the 500 and 503 cases log what they hide from the client: not this test's concern
beforeAll(() => Logger.overrideLogger(false));

describe('the error table (libs/contracts ERROR_STATUS)', () => {
  it.each(ERROR_CODES)('a DomainError %s answers the status of its code', (code) => {
    const { status, body } = mapError(new DomainError(code, 'Refused'));
    expect({ status, code: body.error.code, message: body.error.message }).toEqual({ status: ERROR_STATUS[code], code, message: 'Refused' });
  });

  // the rule the names follow, so a reader can guess a status from a code (the table's header)
  it('keeps the naming rule: .not_found 404, .exists _exists _taken .taken .in_use 409, .protected 403', () => {
    const expected = (code: string) =>
      code.endsWith('.not_found') ? 404 : /(\.|_)exists$|(\.|_)taken$|\.in_use$/.test(code) ? 409 : code.endsWith('.protected') ? 403 : undefined;
    const breaking = ERROR_CODES.filter((code) => expected(code) !== undefined && ERROR_STATUS[code] !== expected(code));
    expect(breaking).toEqual([]);
  });

  it('knows its own codes, and no inherited property as one', () => {
    expect(isErrorCode('account.not_found')).toBe(true);
    expect(isErrorCode('constructor')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('answers a code the table does not know as bad input, under its own code', () => {
    expect(mapError(new DomainError('made.up_not_found', 'Refused', 'title'))).toEqual({
      status: 400,
      body: { error: { code: 'made.up_not_found', message: 'Refused', fields: { title: ['Refused'] }, rules: [{ field: 'title', code: 'invalid', message: 'Refused' }] } },
    });
  });
});

describe('the answers that do not come from a DomainError', () => {
  it('a taken unique value: its field, 409 like the table says', () => {
    const taken = mapError(new ReservationTakenError({ scope: 'account.username', value: 'alice' }));
    expect(taken).toEqual({
      status: 409,
      body: {
        error: {
          code: 'account.username_taken',
          message: 'This username is already taken',
          fields: { username: ['This username is already taken'] },
          // the message is the error's own: its rule is the error's code
          rules: [{ field: 'username', code: 'account.username_taken', message: 'This username is already taken' }],
        },
      },
    });
    expect(mapError(new ReservationTakenError({ scope: 'something.else', value: 'x' }))).toEqual({ status: 409, body: { error: { code: 'unique.taken', message: 'This value is already taken' } } });
  });

  it.each(['account.username', 'account.email', 'policy.title', 'organization.title', 'team.title', 'reader.name', 'attendance_status.title'])(
    'the reservation %s answers 409 under a code of the table',
    (scope) => {
      const { status, body } = mapError(new ReservationTakenError({ scope, value: 'x' }));
      expect(isErrorCode(body.error.code) && body.error.code !== 'unique.taken').toBe(true);
      expect(status).toBe(409);
    },
  );

  it('a version conflict 409, storage unavailable 503, invalid input 400, anything else 500', () => {
    expect(mapError(new WrongExpectedVersionError('account-1', 3, 4))).toMatchObject({ status: 409, body: { error: { code: 'stream.version_conflict' } } });
    expect(mapError(new EventStoreUnavailableError('disk full'))).toMatchObject({ status: 503, body: { error: { code: 'server.unavailable' } } });
    const invalid = z.object({ title: z.string() }).safeParse({ title: 1 });
    expect(mapError(invalid.error)).toMatchObject({ status: 400, body: { error: { code: 'request.invalid', fields: { title: [expect.any(String)] } } } });
    expect(mapError(new Error('a bug'))).toEqual({ status: 500, body: { error: { code: 'server.internal', message: 'Something went wrong on our side' } } });
  });

  it.each([400, 401, 403, 404, 413, 415, 429])("Nest's refusal with %i answers a code the table gives the same status", (status) => {
    const mapped = mapError(new HttpException('Refused', status));
    expect(mapped.status).toBe(status);
    expect(ERROR_STATUS[mapped.body.error.code as keyof typeof ERROR_STATUS]).toBe(status);
  });

  it("keeps Nest's status where the table has no code of it", () => {
    expect(mapError(new HttpException('Not acceptable', 406))).toEqual({ status: 406, body: { error: { code: 'request.invalid', message: 'Not acceptable' } } });
  });
});
