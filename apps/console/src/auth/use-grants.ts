import type { SystemPermission, TGrants } from '@rollcall/contracts';
import { trpc } from '../trpc';

export interface Grants {
  /** held somewhere: the screen is worth showing (lists are filtered by the server) */
  may(permission: SystemPermission): boolean;
  /** held everywhere: what belongs to no organization (password policies, imports, top-level organizations) */
  mayEverywhere(permission: SystemPermission): boolean;
  /** held in this organization (its subtree included) or everywhere */
  mayIn(permission: SystemPermission, organizationId: string | null | undefined): boolean;
}

const NONE: TGrants = { everywhere: [], anywhere: [], within: {} };

export function grantsFrom(grants: TGrants): Grants {
  return {
    may: (permission) => grants.anywhere.includes(permission),
    mayEverywhere: (permission) => grants.everywhere.includes(permission),
    mayIn: (permission, organizationId) => grants.everywhere.includes(permission) || (!!organizationId && (grants.within[permission] ?? []).includes(organizationId)),
  };
}

/**
 * What the signed-in account may do, and where (docs/adr/0011), from `auth.me`: the console hides
 * what is not allowed anywhere and disables what is not allowed here. The server decides anyway;
 * this only spares the administrator buttons that would answer 403.
 */
export function useGrants(): Grants {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  return grantsFrom(me.data?.grants ?? NONE);
}
