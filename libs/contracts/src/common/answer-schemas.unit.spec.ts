import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { toPage, ZAccountListItem, ZAttendanceStatistics, ZPage, ZReader, type TAccountListItem, type TAttendanceStatistics, type TPage } from '../index';
import { answerId, ZMessageAnswer } from './answers';

/**
 * The answer schemas are the answers' one description (docs/adr/0023-one-rest-description.md): the
 * types the API and the console use are inferred from them, and the contract suite
 * (e2e/contract/rest-compat.int.spec.ts) parses real answers with them. Here: the generic page and
 * what the schemas accept and refuse.
 */
describe('answer schemas', () => {
  it('infer the generic page type from the page schema', () => {
    expectTypeOf<z.infer<ReturnType<typeof ZPage<typeof ZAccountListItem>>>>().toEqualTypeOf<TPage<TAccountListItem>>();
    expectTypeOf<TAttendanceStatistics>().toExtend<TPage<TAttendanceStatistics['data'][number]>>();
  });

  it('accept what toPage builds', () => {
    const row: TAccountListItem = {
      id: '0193a9c4-0000-7000-8000-000000000001',
      username: 'ada',
      username_readable: 'ada',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      status_id: 1,
      status_title: 'Active',
      protected: false,
      created_at: '2024-01-01T00:00:00.000Z',
      last_login_at: null,
      expires_at: null,
    };
    expect(ZPage(ZAccountListItem).parse(toPage([row], 11, 2, 10))).toEqual({ data: [row], total: 11, from: 11, to: 11, last_page: 2, current_page: 2, per_page: 10 });
    expect(ZAttendanceStatistics.safeParse({ ...toPage([], 0, 1, 10), month: '2024-01', summary: {}, days: [] }).success).toBe(false);
  });

  it('refuse an id that is not a UUID, a missing field and a value of the wrong type', () => {
    expect(answerId().safeParse('not-a-uuid').success).toBe(false);
    expect(ZMessageAnswer.safeParse({}).success).toBe(false);
    expect(ZReader.shape.connection.safeParse('sleeping').success).toBe(false);
  });
});
