import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TCreateApplicationCommandInput } from '@rollcall/contracts';
import { needsNewClientSecret } from '@rollcall/domain';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication, issuedSecret, newClientSecret, type IssuedSecret } from './application-stream';

export class CreateApplicationCommand {
  constructor(
    readonly input: TCreateApplicationCommandInput,
    readonly context: RequestContext,
    readonly applicationId: string = newAggregateId(),
  ) {}
}

export interface ApplicationWithSecret {
  id: string;
  /** the clear secret, present only when this decision issued one: shown once */
  secret: IssuedSecret | null;
}

/**
 * 'Create a new application': basic info, declared scopes and the client settings (a confidential
 * client by default). A confidential client gets a fresh secret whose hash alone reaches the event.
 */
@CommandHandler(CreateApplicationCommand)
export class CreateApplicationHandler implements ICommandHandler<CreateApplicationCommand, CommandOutcome<ApplicationWithSecret>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context, applicationId }: CreateApplicationCommand): Promise<CommandOutcome<ApplicationWithSecret>> {
    const { secret, hash } = newClientSecret();
    const { position, events } = await decideOnApplication(this.store, this.clock, context, applicationId, (at, state) => ({
      type: 'CreateApplication',
      data: {
        applicationId,
        title: input.title,
        url: input.url,
        description: input.description,
        scopes: input.scopes,
        client: {
          clientType: input.client_type,
          redirectUris: input.redirect_uris,
          postLogoutRedirectUris: input.post_logout_redirect_uris,
          grantTypes: input.grant_types,
          requirePkce: input.require_pkce,
        },
        clientSecretHash: needsNewClientSecret(state, input.client_type) ? hash : null,
        createdAt: at,
      },
    }));
    return { value: { id: applicationId, secret: issuedSecret(events, secret) }, position };
  }
}
