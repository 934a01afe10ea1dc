import type { TPresentAccount } from '@rollcall/contracts';
import { describe, expect, it } from 'vitest';
import { groupPresence } from './group-presence';

const person = (name: string, organizations: string[], teams: string[]): TPresentAccount => ({
  account_id: name,
  account_name: name,
  username_readable: name,
  slot_id: `slot-${name}`,
  arrived_at: '2026-11-23T08:00:00.000Z',
  door: 'Main entrance',
  reader_name: 'Lobby',
  organizations: organizations.map((title) => ({ id: title, title })),
  teams: teams.map((title) => ({ id: title, title })),
});
const none = { organization: 'No organization', team: 'No team' };

describe('groupPresence', () => {
  it('groups people by organization, then team, by title, with those in none last', () => {
    const groups = groupPresence([person('ada', ['Sales'], ['Night']), person('bob', ['Engineering', 'Sales'], []), person('eve', [], [])], none);
    expect(groups.map((group) => [group.title, group.present.map((p) => p.account_id)])).toEqual([
      ['Engineering', ['bob']],
      ['Sales', ['ada', 'bob']],
      ['No organization', ['eve']],
    ]);
    expect(groups[1].teams.map((team) => [team.title, team.present.map((p) => p.account_id)])).toEqual([
      ['Night', ['ada']],
      ['No team', ['bob']],
    ]);
  });

  it('is empty when nobody is in', () => expect(groupPresence([], none)).toEqual([]));
});
