import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { boundedText } from '@rollcall/contracts';
import { DomainError, organizationDecider, organizationStream } from '@rollcall/domain';
import { z } from 'zod';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import { isSupportedTimeZone } from '../../../platform/runtime/time-zones';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

/** `PUT organization/{id}/time-zone` and `organizations.setTimeZone`: an IANA name, or null (or empty) to clear it */
export const ZOrganizationTimeZoneInput = z.object({ time_zone: boundedText('time_zone', 64, { trim: true, tooLong: 'A time zone name is at most 64 characters' }).nullable() }).strict();
export type TOrganizationTimeZoneInput = z.infer<typeof ZOrganizationTimeZoneInput>;
export interface TOrganizationTimeZone {
  time_zone: string | null;
}

export class ChangeOrganizationTimeZoneCommand {
  constructor(
    readonly organizationId: string,
    readonly input: TOrganizationTimeZoneInput,
    readonly context: RequestContext,
  ) {}
}

/**
 * The organization's time zone, which draws the attendance days of its members without a zone of
 * their own (apps/api/src/features/attendance/attendance-time-zone.ts). The name is checked against the
 * runtime's IANA list here, as for an account's profile: the decider knows no runtime.
 */
@CommandHandler(ChangeOrganizationTimeZoneCommand)
export class ChangeOrganizationTimeZoneHandler implements ICommandHandler<ChangeOrganizationTimeZoneCommand, CommandOutcome<TOrganizationTimeZone>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, input, context }: ChangeOrganizationTimeZoneCommand): Promise<CommandOutcome<TOrganizationTimeZone>> {
    const timeZone = input.time_zone === null || input.time_zone === '' ? null : input.time_zone;
    if (timeZone !== null && !isSupportedTimeZone(timeZone)) {
      const message = `Unknown time zone "${timeZone}": choose one of the server's list (GET server/supported-time-zones)`;
      throw new DomainError('organization.time_zone_invalid', message, 'time_zone', { time_zone: [message] });
    }
    const result = await handleCommand(
      this.store,
      this.clock,
      organizationDecider,
      organizationStream(organizationId),
      { type: 'ChangeOrganizationTimeZone', data: { timeZone, changedAt: this.clock.now().toISOString() } },
      context,
    );
    return { value: { time_zone: timeZone }, position: result.position };
  }
}
