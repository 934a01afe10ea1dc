import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TApplicationClientCommandInput } from '@rollcall/contracts';
import { needsNewClientSecret } from '@rollcall/domain';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { decideOnApplication, issuedSecret, newClientSecret } from './application-stream';
import type { ApplicationWithSecret } from './create-application.handler';

export class ConfigureApplicationClientCommand {
  constructor(
    readonly applicationId: string,
    readonly input: TApplicationClientCommandInput,
    readonly context: RequestContext,
  ) {}
}

/**
 * The client settings as a whole (our addition, docs/adr/0014). A public client turning confidential
 * gets a fresh secret, shown once; turning public drops the secret.
 */
@CommandHandler(ConfigureApplicationClientCommand)
export class ConfigureApplicationClientHandler implements ICommandHandler<ConfigureApplicationClientCommand, CommandOutcome<ApplicationWithSecret>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ applicationId, input, context }: ConfigureApplicationClientCommand): Promise<CommandOutcome<ApplicationWithSecret>> {
    const { secret, hash } = newClientSecret();
    const { position, events } = await decideOnApplication(this.store, this.clock, context, applicationId, (at, state) => ({
      type: 'ConfigureApplicationClient',
      data: {
        clientType: input.client_type,
        redirectUris: input.redirect_uris,
        postLogoutRedirectUris: input.post_logout_redirect_uris,
        grantTypes: input.grant_types,
        requirePkce: input.require_pkce,
        // a missing application needs no secret: the decider answers application.not_found
        clientSecretHash: state.status === 'active' && needsNewClientSecret(state, input.client_type) ? hash : null,
        changedAt: at,
      },
    }));
    return { value: { id: applicationId, secret: issuedSecret(events, secret) }, position };
  }
}
