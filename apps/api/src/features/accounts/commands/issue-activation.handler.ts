import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { ActivationMails } from '../activation-mails';

export class IssueActivationCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/** `POST account/{id}/activation`: a new activation mail; the earlier link stops working. */
@CommandHandler(IssueActivationCommand)
export class IssueActivationHandler implements ICommandHandler<IssueActivationCommand, CommandOutcome<{ id: string }>> {
  constructor(private readonly activation: ActivationMails) {}

  async execute({ accountId, context }: IssueActivationCommand): Promise<CommandOutcome<{ id: string }>> {
    const position = await this.activation.send(accountId, context);
    return { value: { id: accountId }, position: position ?? { commit: 0, sequence: 0 } };
  }
}
