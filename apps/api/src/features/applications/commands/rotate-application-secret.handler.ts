import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication, issuedSecret, newClientSecret } from './application-stream';
import type { ApplicationWithSecret } from './create-application.handler';

export class RotateApplicationSecretCommand {
  constructor(
    readonly applicationId: string,
    readonly context: RequestContext,
  ) {}
}

/** A new secret for a confidential client, shown once; the old one stops working at once (400 for a public client). */
@CommandHandler(RotateApplicationSecretCommand)
export class RotateApplicationSecretHandler implements ICommandHandler<RotateApplicationSecretCommand, CommandOutcome<ApplicationWithSecret>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ applicationId, context }: RotateApplicationSecretCommand): Promise<CommandOutcome<ApplicationWithSecret>> {
    const { secret, hash } = newClientSecret();
    const { position, events } = await decideOnApplication(this.store, this.clock, context, applicationId, (at) => ({
      type: 'RotateApplicationClientSecret',
      data: { clientSecretHash: hash, rotatedAt: at },
    }));
    return { value: { id: applicationId, secret: issuedSecret(events, secret) }, position };
  }
}
