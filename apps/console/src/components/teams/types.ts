import type { TAccountTeam, TTeam, TTeamDetails, TTeamMember, TTeamSearchItem } from '@rollcall/contracts';

/** The team shapes of the console, as the API answers them (libs/contracts/src/teams). */
export type TeamRow = TTeam;
export type TeamDetails = TTeamDetails;
export type TeamMemberRow = TTeamMember;
export type AccountTeamRow = TAccountTeam;
/** A team as the search picker offers it. */
export type TeamOption = TTeamSearchItem;
