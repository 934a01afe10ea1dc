import { describe, expect, it } from 'vitest';
import { searchListInput } from './use-server-table';
import { readPaging } from './use-url-table-state';

describe('a server table\'s list input', () => {
  it('asks for the page, size and sort, and leaves an empty search out', () => {
    expect(searchListInput({ page: 2, limit: 20, search: '', sortBy: 'created_at', desc: true })).toEqual({ page: 2, limit: 20, search: undefined, sortBy: 'created_at', desc: true });
    expect(searchListInput({ page: 1, limit: 10, search: 'ada', sortBy: 'title', desc: false })).toEqual({ page: 1, limit: 10, search: 'ada', sortBy: 'title', desc: false });
  });

  it('reads page and size from the URL, the size only from the spec\'s options', () => {
    expect(readPaging(new URLSearchParams('page=3&limit=30'))).toEqual({ page: 3, limit: 30 });
    expect(readPaging(new URLSearchParams('page=0&limit=25'))).toEqual({ page: 1, limit: 10 });
  });
});
