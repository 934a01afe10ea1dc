import type { TPresentAccount } from '@rollcall/contracts';

export interface PresenceGroup {
  /** the organization's id; null for those in no organization */
  id: string | null;
  title: string;
  present: TPresentAccount[];
  teams: Array<{ id: string | null; title: string; present: TPresentAccount[] }>;
}

/**
 * The board's groups: each organization with the people in who belong to it, and within it their
 * teams (a person in two organizations or teams shows in each). `none` titles the rest.
 */
export function groupPresence(present: readonly TPresentAccount[], none: { organization: string; team: string }): PresenceGroup[] {
  const groups = new Map<string | null, PresenceGroup>();
  for (const person of present) {
    const organizations = person.organizations.length ? person.organizations : [{ id: null, title: none.organization }];
    for (const organization of organizations) {
      const group = groups.get(organization.id) ?? { id: organization.id, title: organization.title, present: [], teams: [] };
      group.present.push(person);
      const teams = person.teams.length ? person.teams : [{ id: null, title: none.team }];
      for (const team of teams) {
        let entry = group.teams.find((candidate) => candidate.id === team.id);
        if (!entry) group.teams.push((entry = { id: team.id, title: team.title, present: [] }));
        entry.present.push(person);
      }
      groups.set(organization.id, group);
    }
  }
  const byTitle = <T extends { id: string | null; title: string }>(a: T, b: T) => (a.id === null ? 1 : b.id === null ? -1 : a.title.localeCompare(b.title));
  return [...groups.values()].sort(byTitle).map((group) => ({ ...group, teams: group.teams.sort(byTitle) }));
}
