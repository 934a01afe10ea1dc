import { DomainError, fieldError, type Decider, type DomainEvent } from '../shared';

/**
 * A team (docs/adr/0010): a title, a description, either one organization or several
 * ('Multi-organization team', `interorg`), and its members. Membership lives in the team's own
 * stream: 'User already associated!' is the team's rule, decided on its state. Whether an account may
 * join a team of one organization is decided on what the account's own stream says about its
 * organizations, handed in with the command.
 */
export const TEAM_LIMITS = { titleMax: 255, descriptionMax: 2000 } as const;

export interface TeamCreatedData {
  teamId: string;
  title: string;
  description: string;
  interorg: boolean;
  /** the team's organization; null for a multi-organization team */
  organizationId: string | null;
  isProtected: boolean;
  createdAt: string;
}

export type TeamCreated = DomainEvent<'TeamCreated', TeamCreatedData>;
export type TeamTitleChanged = DomainEvent<'TeamTitleChanged', { teamId: string; title: string; changedAt: string }>;
export type TeamDeleted = DomainEvent<'TeamDeleted', { teamId: string; title: string; organizationId: string | null; deletedAt: string }>;
export type AccountAddedToTeam = DomainEvent<'AccountAddedToTeam', { teamId: string; accountId: string; at: string }>;
export type AccountRemovedFromTeam = DomainEvent<'AccountRemovedFromTeam', { teamId: string; accountId: string; at: string }>;
export type TeamEvent = TeamCreated | TeamTitleChanged | TeamDeleted | AccountAddedToTeam | AccountRemovedFromTeam;
export const TEAM_EVENT_TYPES: TeamEvent['type'][] = ['TeamCreated', 'TeamTitleChanged', 'TeamDeleted', 'AccountAddedToTeam', 'AccountRemovedFromTeam'];

/**
 * What the account's own stream says, as far as joining a team goes: whether it exists, and its
 * organizations (`AccountState.organizationIds`). The handler folds the account and hands this in.
 */
export interface TeamCandidate {
  accountId: string;
  exists: boolean;
  organizationIds: readonly string[];
}

export type CreateTeam = { type: 'CreateTeam'; data: TeamCreatedData & { members: TeamCandidate[] } };
export type ChangeTeamTitle = { type: 'ChangeTeamTitle'; data: { title: string; changedAt: string } };
export type DeleteTeam = { type: 'DeleteTeam'; data: { deletedAt: string } };
export type AddAccountToTeam = { type: 'AddAccountToTeam'; data: { account: TeamCandidate; at: string } };
export type RemoveAccountFromTeam = { type: 'RemoveAccountFromTeam'; data: { accountId: string; at: string } };
export type TeamCommand = CreateTeam | ChangeTeamTitle | DeleteTeam | AddAccountToTeam | RemoveAccountFromTeam;

export type TeamState =
  | { status: 'none' }
  | {
      status: 'active';
      teamId: string;
      title: string;
      description: string;
      interorg: boolean;
      organizationId: string | null;
      isProtected: boolean;
      createdAt: string;
      /** in joining order */
      memberIds: string[];
    }
  | { status: 'deleted'; teamId: string };

export const teamNotFound = () => new DomainError('team.not_found', 'Team not found');


function assertValidTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed) throw fieldError('team.title_invalid', 'title', 'Title is required');
  if ([...trimmed].length > TEAM_LIMITS.titleMax) throw fieldError('team.title_invalid', 'title', `Title may be at most ${TEAM_LIMITS.titleMax} characters`, { code: 'too_long', params: { label: 'Title', max: TEAM_LIMITS.titleMax } });
  return trimmed;
}

/** the rules of joining, the same at creation (field `accounts`) and later (field `account_id`) */
function assertMayJoin(team: { interorg: boolean; organizationId: string | null; memberIds: readonly string[] }, candidate: TeamCandidate, field: string): void {
  if (!candidate.exists) throw fieldError('account.not_found', field, 'Account not found');
  if (team.memberIds.includes(candidate.accountId)) throw fieldError('team.member_exists', field, 'User already associated!');
  if (!team.interorg && team.organizationId && !candidate.organizationIds.includes(team.organizationId)) {
    throw fieldError('team.member_not_in_organization', field, "This account does not belong to the team's organization");
  }
}

export function decideTeam(command: TeamCommand, state: TeamState): TeamEvent[] {
  switch (command.type) {
    case 'CreateTeam': {
      if (state.status !== 'none') throw new DomainError('team.exists', 'This team already exists');
      const { members, ...data } = command.data;
      const title = assertValidTitle(data.title);
      if ([...data.description].length > TEAM_LIMITS.descriptionMax) throw fieldError('team.description_invalid', 'description', `Description may be at most ${TEAM_LIMITS.descriptionMax} characters`, {
          code: 'too_long',
          params: { label: 'Description', max: TEAM_LIMITS.descriptionMax },
        });
      if (!data.interorg && !data.organizationId) throw fieldError('team.organization_required', 'organization', 'Pick the organization of the team, or make it a multi-organization team');
      const organizationId = data.interorg ? null : data.organizationId;
      const events: TeamEvent[] = [{ type: 'TeamCreated', data: { ...data, title, organizationId } }];
      const memberIds: string[] = [];
      for (const member of members) {
        // the same account twice in one request is one membership, not an error
        if (memberIds.includes(member.accountId)) continue;
        assertMayJoin({ interorg: data.interorg, organizationId, memberIds }, member, 'accounts');
        memberIds.push(member.accountId);
        events.push({ type: 'AccountAddedToTeam', data: { teamId: data.teamId, accountId: member.accountId, at: data.createdAt } });
      }
      return events;
    }
    case 'ChangeTeamTitle': {
      if (state.status !== 'active') throw teamNotFound();
      const title = assertValidTitle(command.data.title);
      if (title === state.title) return [];
      return [{ type: 'TeamTitleChanged', data: { teamId: state.teamId, title, changedAt: command.data.changedAt } }];
    }
    case 'DeleteTeam':
      if (state.status !== 'active') throw teamNotFound();
      if (state.isProtected) throw new DomainError('team.protected', `The team ${state.title} is protected and cannot be deleted`);
      return [{ type: 'TeamDeleted', data: { teamId: state.teamId, title: state.title, organizationId: state.organizationId, deletedAt: command.data.deletedAt } }];
    case 'AddAccountToTeam': {
      if (state.status !== 'active') throw fieldError('team.not_found', 'team_id', 'Team not found');
      assertMayJoin(state, command.data.account, 'team_id');
      return [{ type: 'AccountAddedToTeam', data: { teamId: state.teamId, accountId: command.data.account.accountId, at: command.data.at } }];
    }
    case 'RemoveAccountFromTeam': {
      if (state.status !== 'active') throw teamNotFound();
      if (!state.memberIds.includes(command.data.accountId)) throw new DomainError('team.member_not_found', 'This account is not a member of the team');
      return [{ type: 'AccountRemovedFromTeam', data: { teamId: state.teamId, accountId: command.data.accountId, at: command.data.at } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

export function evolveTeam(state: TeamState, event: TeamEvent): TeamState {
  switch (event.type) {
    case 'TeamCreated': {
      const d = event.data;
      return { status: 'active', teamId: d.teamId, title: d.title, description: d.description, interorg: d.interorg, organizationId: d.organizationId, isProtected: d.isProtected, createdAt: d.createdAt, memberIds: [] };
    }
    case 'TeamTitleChanged':
      return state.status === 'active' ? { ...state, title: event.data.title } : state;
    case 'TeamDeleted':
      return { status: 'deleted', teamId: event.data.teamId };
    case 'AccountAddedToTeam':
      return state.status === 'active' ? { ...state, memberIds: [...state.memberIds, event.data.accountId] } : state;
    case 'AccountRemovedFromTeam':
      return state.status === 'active' ? { ...state, memberIds: state.memberIds.filter((id) => id !== event.data.accountId) } : state;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export const teamDecider: Decider<TeamCommand, TeamEvent, TeamState> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveTeam,
  decide: decideTeam,
};

export const teamStream = (teamId: string) => `team-${teamId}`;

/**
 * Team titles are unique within their organization, and among the multi-organization teams
 * (case-insensitively): two 'Night shift' teams in two organizations are fine, two in one are not.
 */
export const teamTitleReservation = (team: { title: string; organizationId: string | null }) => ({ scope: 'team.title', value: `${team.organizationId ?? '*'}:${team.title.trim().toLowerCase()}` });
