import { accountDecider, accountStream, attendanceStatusDecider, attendanceStatusStream, calendarEventGroupDecider, calendarEventGroupStream, DomainError, type StatusChoice } from '@rollcall/domain';
import { loadState } from '../../../platform/commands/handle-command';
import type { EventStore } from '../../../platform/event-store/event-store.port';

/** What the picked status's own stream says (not the read model): it exists and whether it is active. */
export async function statusChoice(store: EventStore, statusId: string): Promise<StatusChoice> {
  const state = await loadState(store, attendanceStatusDecider, attendanceStatusStream(statusId));
  return state.status === 'active' ? { statusId, exists: true, active: state.active } : { statusId, exists: false, active: false };
}

/** A calendar belongs to a live account (404 account.not_found otherwise). */
export async function requireAccount(store: EventStore, accountId: string): Promise<void> {
  const account = await loadState(store, accountDecider, accountStream(accountId));
  if (account.status !== 'created') throw new DomainError('account.not_found', 'This account does not exist');
}

/** The body's account_id, when sent, must name the account of the path. */
export function sameAccount(pathAccountId: string, bodyAccountId: string | undefined): void {
  if (bodyAccountId !== undefined && bodyAccountId !== pathAccountId) {
    throw new DomainError('request.invalid', 'account_id must be the account of the path', 'account_id');
  }
}

/** Runs a decision and reports the domain's `title` errors under the field the payload used. */
export async function renamingTitleField<T>(field: string, decision: () => Promise<T>): Promise<T> {
  try {
    return await decision();
  } catch (error) {
    if (!(error instanceof DomainError) || field === 'title' || !error.fields?.title) throw error;
    const { title, ...others } = error.fields;
    const rules = error.rules?.map((rule) => (rule.field === 'title' ? { ...rule, field } : rule));
    throw new DomainError(error.code, error.message, error.field === 'title' ? field : error.field, { ...others, [field]: title }, rules);
  }
}

/**
 * The group must be a live group of this account, and the event one of its live days (404
 * otherwise, the same for another account's group as for none): a change of the whole group is
 * named through the day that was clicked, like a change of that day alone.
 */
export async function requireGroupOfAccount(store: EventStore, accountId: string, groupId: string, eventId: string): Promise<void> {
  const group = await loadState(store, calendarEventGroupDecider, calendarEventGroupStream(groupId));
  if (group.status !== 'active' || group.accountId !== accountId) throw new DomainError('calendar.group_not_found', 'This event group does not exist');
  if (!group.events.some((day) => day.eventId === eventId)) throw new DomainError('calendar.event_not_found', 'This calendar event does not exist');
}
