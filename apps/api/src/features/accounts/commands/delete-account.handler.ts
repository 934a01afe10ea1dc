import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, emailReservation, usernameReservation } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class DeleteAccountCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

export interface DeletedAccount {
  id: string;
  firstName: string;
  lastName: string;
}

/**
 * Refused (403 account.protected) for the bootstrap administrator. The username and e-mail are
 * released with the append. Sessions end with the read-model row: session resolution joins
 * accounts_v2, and the session cache evicts on every account event but sign-ins.
 */
@CommandHandler(DeleteAccountCommand)
export class DeleteAccountHandler implements ICommandHandler<DeleteAccountCommand, CommandOutcome<DeletedAccount>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, context }: DeleteAccountCommand): Promise<CommandOutcome<DeletedAccount>> {
    const deleted: DeletedAccount = { id: accountId, firstName: '', lastName: '' };
    const result = await handleCommand(
      this.store,
      this.clock,
      accountDecider,
      accountStream(accountId),
      { type: 'DeleteAccount', data: { deletedAt: this.clock.now().toISOString() } },
      context,
      (state) => {
        if (state.status !== 'created') return {};
        deleted.firstName = state.firstName;
        deleted.lastName = state.lastName;
        return { releases: [usernameReservation(state.username), emailReservation(state.email)] };
      },
    );
    return { value: deleted, position: result.position };
  }
}

export const accountDeletedMessage = ({ firstName, lastName }: DeletedAccount) => `Account ${firstName} ${lastName} deleted`;
