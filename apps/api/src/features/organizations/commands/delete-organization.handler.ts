import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TDeleteOrganizationChoices } from '@rollcall/contracts';
import {
  accountDecider,
  accountStream,
  emailReservation,
  ORGANIZATION_TREE_STREAM,
  organizationDecider,
  organizationStream,
  organizationTitleReservation,
  organizationTreeDecider,
  planOrganizationDeletion,
  usernameReservation,
  type AccountCommand,
  type AccountState,
  type OrganizationDeletionChoices,
  type OrganizationDeletionPlan,
} from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { appendDecision, decideInTurn, loadStream, type PlannedWrite } from '../../../platform/commands/multi-stream';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class DeleteOrganizationCommand {
  constructor(
    readonly organizationId: string,
    readonly choices: TDeleteOrganizationChoices,
    readonly context: RequestContext,
  ) {}
}

export const organizationRemovedMessage = 'Organization removed';

export const toDeletionChoices = (choices: TDeleteOrganizationChoices): OrganizationDeletionChoices => ({
  suborganizations: choices.suborganizations,
  suborganizationsMoveTo: choices.suborganizations_move_to ?? null,
  accounts: choices.accounts,
  accountsMoveTo: choices.accounts_move_to ?? null,
});

/**
 * One decision, one append (docs/adr/0009): the tree decides what goes and what moves
 * (`planOrganizationDeletion`), every deleted organization's stream decides its own deletion (a
 * protected one refuses, and so the whole deletion), and every member of a deleted organization
 * leaves it, moves to the destination (an account already there just leaves) or is deleted (a
 * protected account refuses). Titles, usernames and e-mails are released with the append; any refusal
 * or concurrent change writes nothing anywhere. The members are found through the read model and
 * each is decided on its own stream.
 */
@CommandHandler(DeleteOrganizationCommand)
export class DeleteOrganizationHandler implements ICommandHandler<DeleteOrganizationCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, choices, context }: DeleteOrganizationCommand): Promise<CommandOutcome<{ id: string }>> {
    const deletion = toDeletionChoices(choices);
    const position = await retryingOnConflict(async () => {
      const at = this.clock.now().toISOString();
      const tree = await loadStream(this.store, organizationTreeDecider, ORGANIZATION_TREE_STREAM);
      const plan = planOrganizationDeletion(tree.state, organizationId, deletion);
      const writes: PlannedWrite[] = [{ stream: tree, events: organizationTreeDecider.decide({ type: 'RemoveOrganizationFromTree', data: { organizationId, deletion, at } }, tree.state) }];

      for (const deletedId of plan.deleted) {
        const organization = await loadStream(this.store, organizationDecider, organizationStream(deletedId));
        const events = organizationDecider.decide({ type: 'DeleteOrganization', data: { deletedAt: at, deletion } }, organization.state);
        const releases = organization.state.status === 'active' ? [organizationTitleReservation(organization.state.title)] : [];
        writes.push({ stream: organization, events, releases });
      }

      for (const accountId of await this.membersOf(plan.deleted)) {
        const account = await loadStream(this.store, accountDecider, accountStream(accountId));
        const commands = accountCommands(account.state, plan, at);
        if (!commands.length) continue;
        const { events } = decideInTurn(accountDecider, account.state, commands);
        const releases = account.state.status === 'created' && plan.accounts.action === 'delete' ? [usernameReservation(account.state.username), emailReservation(account.state.email)] : [];
        writes.push({ stream: account, events, releases });
      }
      return appendDecision(this.store, this.clock, context, writes);
    });
    return { value: { id: organizationId }, position };
  }

  private async membersOf(organizationIds: string[]): Promise<string[]> {
    const rows = await this.db.selectFrom('organization_members_v1').select('account_id').distinct().where('organization_id', 'in', organizationIds).orderBy('account_id').execute();
    return rows.map((row) => row.account_id);
  }
}

/** What the deletion asks of one member, decided on its own state (its stream is the truth, not the read model). */
function accountCommands(state: AccountState, plan: OrganizationDeletionPlan, at: string): AccountCommand[] {
  if (state.status !== 'created') return [];
  const left = state.organizationIds.filter((id) => plan.deleted.includes(id));
  if (!left.length) return [];
  if (plan.accounts.action === 'delete') return [{ type: 'DeleteAccount', data: { deletedAt: at } }];
  const commands: AccountCommand[] = left.map((organizationId) => ({ type: 'LeaveOrganization', data: { organizationId, at } }));
  if (plan.accounts.action === 'move' && !state.organizationIds.includes(plan.accounts.to)) commands.push({ type: 'JoinOrganization', data: { organizationId: plan.accounts.to, at } });
  return commands;
}
