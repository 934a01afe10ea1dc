import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { clientAddressOf } from '../../platform/http/client-address';
import { correlationIdOf } from '../../platform/http/request-context.factory';

/**
 * What the provider did, as events (docs/adr/0014, 'Audit'): tokens issued and refused,
 * authorizations refused, sessions ended. Sign-in (AccountSignedIn, SignInFailed) and consent
 * (ApplicationConsentGiven) are the account's own events already.
 *
 * Stream: `oidc-activity-{applicationId}` (or `oidc-activity-unknown` when no known client was
 * named): one per application, so an application's sign-in history is one stream read and a busy
 * application never contends with anything else (appended with no version check: these are
 * records, not decisions). Every event names the account (null for client credentials or before
 * sign-in), the application and, in its metadata, the source address.
 */
export type OidcActivityType = 'OidcTokenIssued' | 'OidcTokenRefused' | 'OidcAuthorizationRefused' | 'OidcSessionEnded';

export interface OidcActivity {
  type: OidcActivityType;
  applicationId: string | null;
  accountId: string | null;
  /** token issues and refusals: authorization_code, refresh_token, client_credentials */
  grantType?: string | null;
  scope?: string | null;
  /** refusals: the standard OAuth error and its description */
  error?: string | null;
  errorDescription?: string | null;
}

export const oidcActivityStream = (applicationId: string | null) => `oidc-activity-${applicationId ?? 'unknown'}`;

export async function recordOidcActivity(store: EventStore, request: IncomingMessage, activity: OidcActivity, at: Date): Promise<void> {
  const { type, ...data } = activity;
  await store.appendToStream(
    oidcActivityStream(activity.applicationId),
    [
      {
        type,
        data: { ...data, at: at.toISOString() },
        metadata: {
          eventId: randomUUID(),
          actor: activity.accountId ?? (activity.applicationId ? `application:${activity.applicationId}` : 'anonymous'),
          actorKind: activity.accountId ? 'account' : 'system',
          sourceIp: clientAddressOf(request),
          correlationId: correlationIdOf(request),
          causationId: null,
          occurredAt: at.toISOString(),
        },
      },
    ],
    { expectedVersion: 'any' },
  );
}
