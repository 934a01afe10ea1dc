/** The read tables of teams (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
/** teams_v1: one row per live team (docs/adr/0010); `organization_id` null for a multi-organization team */
export interface TeamTable {
  id: string;
  title: string;
  /** what search, find and the title sort read */
  title_lower: string;
  description: string;
  interorg: number;
  organization_id: string | null;
  is_protected: number;
  created_at: string;
  updated_at: string;
}

/** team_members_v1: which accounts belong to which live team, since when */
export interface TeamMemberTable {
  team_id: string;
  account_id: string;
  created_at: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    teams_v1: TeamTable;
    team_members_v1: TeamMemberTable;
  }
}
