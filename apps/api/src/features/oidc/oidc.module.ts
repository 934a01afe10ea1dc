import { Module } from '@nestjs/common';
import { GiveApplicationConsentHandler } from './commands/give-application-consent.handler';
import { RevokeApplicationConsentHandler } from './commands/revoke-application-consent.handler';
import { OidcInteractions } from './oidc-interactions';
import { OidcProviderHost } from './oidc-provider.host';
import { OidcRevocations } from './oidc-revocations';
import { ListAccountConsentsHandler } from './queries/list-account-consents.query';
import { OidcV2Controller } from './rest/oidc.v2.controller';

/**
 * The OpenID Connect provider (docs/adr/0014): mounted under /oidc by create-app.ts (OidcProviderHost.mount,
 * before the console's catch-all), its interaction routes for the console's sign-in and consent
 * pages, and the consents REST/tRPC calls.
 */
@Module({
  controllers: [OidcV2Controller],
  providers: [OidcProviderHost, OidcInteractions, OidcRevocations, GiveApplicationConsentHandler, RevokeApplicationConsentHandler, ListAccountConsentsHandler],
  exports: [OidcProviderHost, OidcInteractions],
})
export class OidcModule {}

/** Mounts the provider and its interaction routes on the Express instance (create-app.ts, before serveConsole). */
export async function mountOidc(app: { get<T>(type: new (...args: never[]) => T): T }, express: import('express').Express): Promise<void> {
  await app.get(OidcProviderHost).mount(express, app.get(OidcInteractions).router());
}
