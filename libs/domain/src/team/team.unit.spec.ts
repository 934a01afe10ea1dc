import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import type { DomainError } from '../shared';
import { teamDecider, teamTitleReservation, type TeamCandidate, type TeamCreatedData, type TeamEvent } from './team';

const at = '2026-11-22T08:00:00.000Z';
const sales = 'org-sales';
const support = 'org-support';
const team = givenFor(teamDecider);

const teamData = (changes: Partial<TeamCreatedData> = {}): TeamCreatedData => ({ teamId: 'T', title: 'Night shift', description: '', interorg: false, organizationId: sales, isProtected: false, createdAt: at, ...changes });
const created = (changes: Partial<TeamCreatedData> = {}): TeamEvent => ({ type: 'TeamCreated', data: teamData(changes) });
const added = (accountId: string): TeamEvent => ({ type: 'AccountAddedToTeam', data: { teamId: 'T', accountId, at } });
const removed = (accountId: string): TeamEvent => ({ type: 'AccountRemovedFromTeam', data: { teamId: 'T', accountId, at } });
const candidate = (accountId: string, organizationIds: string[] = [sales], exists = true): TeamCandidate => ({ accountId, exists, organizationIds });
const add = (account: TeamCandidate) => ({ type: 'AddAccountToTeam' as const, data: { account, at } });

describe('team decider', () => {
  it('creates a team of one organization with its first members, title trimmed', () =>
    team([])
      .when({ type: 'CreateTeam', data: { ...teamData({ title: '  Night shift ' }), members: [candidate('ada'), candidate('alan', [support, sales])] } })
      .then([created(), added('ada'), added('alan')]));

  it('creates a multi-organization team without an organization, whatever organization was sent, with members of any organization', () =>
    team([])
      .when({ type: 'CreateTeam', data: { ...teamData({ interorg: true, organizationId: sales }), members: [candidate('ada', [support]), candidate('bob', [])] } })
      .then([created({ interorg: true, organizationId: null }), added('ada'), added('bob')]));

  it('counts an account sent twice once', () =>
    team([])
      .when({ type: 'CreateTeam', data: { ...teamData(), members: [candidate('ada'), candidate('ada')] } })
      .then([created(), added('ada')]));

  it('refuses a bad title, a long description and a missing organization, under their fields', () => {
    team([]).when({ type: 'CreateTeam', data: { ...teamData({ title: '  ' }), members: [] } }).thenThrows('team.title_invalid', 'title');
    team([]).when({ type: 'CreateTeam', data: { ...teamData({ title: 'x'.repeat(256) }), members: [] } }).thenThrows('team.title_invalid', 'title');
    team([]).when({ type: 'CreateTeam', data: { ...teamData({ description: 'x'.repeat(2001) }), members: [] } }).thenThrows('team.description_invalid', 'description');
    team([]).when({ type: 'CreateTeam', data: { ...teamData({ organizationId: null }), members: [] } }).thenThrows('team.organization_required', 'organization');
    team([created()]).when({ type: 'CreateTeam', data: { ...teamData(), members: [] } }).thenThrows('team.exists');
  });

  it('names the bound of a title or description too long', () => {
    const refusal = (data: Partial<TeamCreatedData>) => {
      try {
        teamDecider.decide({ type: 'CreateTeam', data: { ...teamData(data), members: [] } }, teamDecider.initialState());
      } catch (error) {
        return (error as DomainError).rules;
      }
      throw new Error('accepted');
    };
    expect(refusal({ title: 'x'.repeat(256) })).toEqual([{ field: 'title', message: 'Title may be at most 255 characters', code: 'too_long', params: { label: 'Title', max: 255 } }]);
    expect(refusal({ description: 'x'.repeat(2001) })).toEqual([{ field: 'description', message: 'Description may be at most 2000 characters', code: 'too_long', params: { label: 'Description', max: 2000 } }]);
  });

  it('refuses first members that do not exist or do not belong to the organization', () => {
    team([]).when({ type: 'CreateTeam', data: { ...teamData(), members: [candidate('ada'), candidate('ghost', [], false)] } }).thenThrows('account.not_found', 'accounts');
    team([]).when({ type: 'CreateTeam', data: { ...teamData(), members: [candidate('eve', [support])] } }).thenThrows('team.member_not_in_organization', 'accounts');
  });

  it('renames only when the title differs, and never to nothing', () => {
    team([created()]).when({ type: 'ChangeTeamTitle', data: { title: 'Night shift', changedAt: at } }).then([]);
    team([created()]).when({ type: 'ChangeTeamTitle', data: { title: ' Early shift ', changedAt: at } }).then([{ type: 'TeamTitleChanged', data: { teamId: 'T', title: 'Early shift', changedAt: at } }]);
    team([created()]).when({ type: 'ChangeTeamTitle', data: { title: '', changedAt: at } }).thenThrows('team.title_invalid', 'title');
    team([]).when({ type: 'ChangeTeamTitle', data: { title: 'x', changedAt: at } }).thenThrows('team.not_found');
  });

  it('deletes a team, but not a protected one, and nothing after', () => {
    team([created()]).when({ type: 'DeleteTeam', data: { deletedAt: at } }).then([{ type: 'TeamDeleted', data: { teamId: 'T', title: 'Night shift', organizationId: sales, deletedAt: at } }]);
    team([created({ isProtected: true })]).when({ type: 'DeleteTeam', data: { deletedAt: at } }).thenThrows('team.protected');
    const gone: TeamEvent = { type: 'TeamDeleted', data: { teamId: 'T', title: 'Night shift', organizationId: sales, deletedAt: at } };
    team([created(), gone]).when({ type: 'DeleteTeam', data: { deletedAt: at } }).thenThrows('team.not_found');
    team([created(), gone]).when(add(candidate('ada'))).thenThrows('team.not_found', 'team_id');
  });

  it("adds a member of the team's organization once: 'User already associated!' the second time", () => {
    team([created()]).when(add(candidate('ada'))).then([added('ada')]);
    team([created(), added('ada')]).when(add(candidate('ada'))).thenThrows('team.member_exists', 'team_id');
    team([created(), added('ada'), removed('ada')]).when(add(candidate('ada'))).then([added('ada')]);
  });

  it("refuses an account outside the team's organization, and an unknown one; a multi-organization team takes anyone", () => {
    team([created()]).when(add(candidate('eve', [support]))).thenThrows('team.member_not_in_organization', 'team_id');
    team([created()]).when(add(candidate('ghost', [], false))).thenThrows('account.not_found', 'team_id');
    team([created({ interorg: true, organizationId: null })]).when(add(candidate('eve', [support]))).then([added('eve')]);
  });

  it('removes a member, and refuses one that is not there', () => {
    team([created(), added('ada')]).when({ type: 'RemoveAccountFromTeam', data: { accountId: 'ada', at } }).then([removed('ada')]);
    team([created()]).when({ type: 'RemoveAccountFromTeam', data: { accountId: 'ada', at } }).thenThrows('team.member_not_found');
  });

  it('reserves titles per organization and among multi-organization teams, case-insensitively', () => {
    expect(teamTitleReservation({ title: ' Night Shift ', organizationId: sales })).toEqual(teamTitleReservation({ title: 'night shift', organizationId: sales }));
    expect(teamTitleReservation({ title: 'Night shift', organizationId: sales }).value).not.toBe(teamTitleReservation({ title: 'Night shift', organizationId: support }).value);
    expect(teamTitleReservation({ title: 'Night shift', organizationId: null }).value).not.toBe(teamTitleReservation({ title: 'Night shift', organizationId: sales }).value);
  });
});
