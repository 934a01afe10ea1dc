import { accountDecider, accountStream, type TeamCandidate } from '@rollcall/domain';
import { loadState } from '../../../platform/commands/handle-command';
import type { EventStore } from '../../../platform/event-store/event-store.port';

/** What an account's own stream says about joining a team: that it exists, and its organizations (docs/adr/0010). */
export async function teamCandidate(store: EventStore, accountId: string): Promise<TeamCandidate & { firstName: string; lastName: string }> {
  const account = await loadState(store, accountDecider, accountStream(accountId));
  return account.status === 'created'
    ? { accountId, exists: true, organizationIds: account.organizationIds, firstName: account.firstName, lastName: account.lastName }
    : { accountId, exists: false, organizationIds: [], firstName: '', lastName: '' };
}
