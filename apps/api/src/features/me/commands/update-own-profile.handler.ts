import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TUpdateAccountProfileInput, TUpdateOwnProfileInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError } from '@rollcall/domain';
import { loadState } from '../../../platform/commands/handle-command';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { UpdateAccountProfileCommand } from '../../accounts/commands/update-account-profile.handler';

export class UpdateOwnProfileCommand {
  constructor(
    /** the signed-in account: the only one this changes */
    readonly accountId: string,
    readonly input: TUpdateOwnProfileInput,
    readonly context: RequestContext,
  ) {}
}

/**
 * The account changes what it may of its own profile (libs/contracts ZUpdateOwnProfileInput): the
 * fields it sends replace those of the profile as its stream has it, every other field is written
 * back unchanged, and the accounts feature's own UpdateAccountProfile command checks and records the
 * whole, so the profile's rules (names required, a known time zone, en or de) answer here as they do
 * to an administrator, field by field.
 */
@CommandHandler(UpdateOwnProfileCommand)
export class UpdateOwnProfileHandler implements ICommandHandler<UpdateOwnProfileCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ accountId, input, context }: UpdateOwnProfileCommand): Promise<CommandOutcome<{ id: string }>> {
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    if (state.status !== 'created') throw new DomainError('account.not_found', 'Account not found');
    const { additional } = state;
    const kept = <T>(sent: T | undefined, current: T) => (sent === undefined ? current : sent);
    const profile: TUpdateAccountProfileInput = {
      first_name: kept(input.first_name, state.firstName),
      last_name: kept(input.last_name, state.lastName),
      email: state.email,
      middle_name: kept(input.middle_name, additional.middleName),
      nickname: kept(input.nickname, additional.nickname),
      time_zone: kept(input.time_zone, additional.timeZone),
      locale: kept(input.locale, additional.locale),
      birth_date: additional.birthDate,
      gender: additional.gender,
      website: additional.website,
      profile: additional.profile,
      address: additional.address,
      additional: { telephone: input.telephone ?? additional.telephone, email: additional.emails },
    };
    return this.commandBus.execute<UpdateAccountProfileCommand, CommandOutcome<{ id: string }>>(new UpdateAccountProfileCommand(accountId, profile, context));
  }
}
