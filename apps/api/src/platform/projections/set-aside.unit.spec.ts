import { describe, expect, it } from 'vitest';
import { isEventFault, positionBefore } from './set-aside';

describe('set-aside rules', () => {
  it("sets aside what is the event's fault, never what is the storage's", () => {
    expect(isEventFault(new TypeError("Cannot read properties of undefined (reading 'title')"))).toBe(true);
    expect(isEventFault(Object.assign(new Error('UNIQUE constraint failed: accounts_v2.username_lower'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(true);
    expect(isEventFault(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(true);
    expect(isEventFault(Object.assign(new Error('invalid input syntax for type bigint'), { code: '22P02' }))).toBe(true);
    expect(isEventFault(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isEventFault(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(false);
    expect(isEventFault(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(false);
    expect(isEventFault(new Error('anything else'))).toBe(false);
  });

  it('steps back one position so that reading from it starts at the event', () => {
    expect(positionBefore({ commit: 12, sequence: 3 })).toEqual({ commit: 12, sequence: 2 });
    expect(positionBefore({ commit: 12, sequence: 0 })).toEqual({ commit: 11, sequence: Number.MAX_SAFE_INTEGER });
    expect(positionBefore({ commit: 0, sequence: 0 })).toEqual({ commit: 0, sequence: 0 });
  });
});
