import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TCalendarDaysChangedAlone } from '@rollcall/contracts';
import { calendarEventGroupDecider, calendarEventGroupStream, daysChangedAlone, DomainError } from '@rollcall/domain';
import { loadState } from '../../../platform/commands/handle-command';
import { EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class DaysChangedAloneQuery {
  constructor(
    readonly accountId: string,
    readonly groupId: string,
  ) {}
}

/**
 * The days of an event group changed alone, which a change of the whole group keeps unless reset:
 * the event dialog says how many before the change, and offers the group's own values when a day
 * changed alone is opened for a change of the whole group. Read from the group's stream, as the decision
 * that keeps them does (the read model has no such flag). Another account's group is not found.
 */
@QueryHandler(DaysChangedAloneQuery)
export class DaysChangedAloneHandler implements IQueryHandler<DaysChangedAloneQuery, TCalendarDaysChangedAlone> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ accountId, groupId }: DaysChangedAloneQuery): Promise<TCalendarDaysChangedAlone> {
    const group = await loadState(this.store, calendarEventGroupDecider, calendarEventGroupStream(groupId));
    if (group.status !== 'active' || group.accountId !== accountId) throw new DomainError('calendar.group_not_found', 'This event group does not exist');
    return {
      changed_alone: daysChangedAlone(group).map((day) => ({ event_id: day.eventId, date: day.date })),
      group: { title: group.title, description: group.description, status_id: group.statusId },
    };
  }
}
