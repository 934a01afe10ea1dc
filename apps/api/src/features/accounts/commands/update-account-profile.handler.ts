import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TUpdateAccountProfileInput } from '@rollcall/contracts';
import { accountDecider, accountProfileViolations, accountStream, emailReservation, throwProfileViolations, type AccountAdditional, type UpdateAccountProfile } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { isSupportedTimeZone } from '../../../platform/runtime/time-zones';

export class UpdateAccountProfileCommand {
  constructor(
    readonly accountId: string,
    readonly input: TUpdateAccountProfileInput,
    readonly context: RequestContext,
  ) {}
}

/** Empty text means 'not set'. */
const orNull = (text: string | null | undefined) => (text == null || text.trim() === '' ? null : text.trim());

export function toProfileCommandData(input: TUpdateAccountProfileInput): Omit<UpdateAccountProfile['data'], 'today' | 'updatedAt'> {
  return {
    firstName: input.first_name,
    lastName: input.last_name,
    email: input.email,
    additional: {
      middleName: orNull(input.middle_name),
      nickname: orNull(input.nickname),
      birthDate: orNull(input.birth_date),
      gender: orNull(input.gender) as AccountAdditional['gender'],
      timeZone: orNull(input.time_zone),
      locale: orNull(input.locale) as AccountAdditional['locale'],
      website: orNull(input.website),
      profile: orNull(input.profile),
      address: orNull(input.address),
      ...(input.additional?.telephone ? { telephone: input.additional.telephone } : {}),
      ...(input.additional?.email ? { emails: input.additional.email } : {}),
    },
  };
}

/**
 * The time zone is checked against the runtime's IANA list here (the decider knows no runtime), in
 * the same answer as the domain's own rules. A changed e-mail reserves the new address and releases
 * the old one in the same append, so it is free for others at once and never held twice.
 */
@CommandHandler(UpdateAccountProfileCommand)
export class UpdateAccountProfileHandler implements ICommandHandler<UpdateAccountProfileCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, context }: UpdateAccountProfileCommand): Promise<CommandOutcome<{ id: string }>> {
    const now = this.clock.now();
    const today = now.toISOString().slice(0, 10);
    const data = toProfileCommandData(input);
    const violations = accountProfileViolations(data, today);
    const timeZone = data.additional.timeZone;
    if (timeZone !== null && !violations.some((v) => v.field === 'time_zone') && !isSupportedTimeZone(timeZone)) {
      violations.push({ code: 'account.time_zone_invalid', field: 'time_zone', message: `Unknown time zone "${timeZone}"` });
    }
    throwProfileViolations(violations);
    const result = await handleCommand(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      { type: 'UpdateAccountProfile', data: { ...data, today, updatedAt: now.toISOString() } },
      context,
      (state) => {
        if (state.status !== 'created') return {};
        const previous = emailReservation(state.email);
        const next = emailReservation(data.email);
        return previous.value === next.value ? {} : { reservations: [next], releases: [previous] };
      },
    );
    return { value: { id: accountId }, position: result.position };
  }
}
