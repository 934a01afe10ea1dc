import type { TApplicationDetails, TApplicationWithSecret } from '@rollcall/contracts';
import type { ApplicationWithSecret } from './commands/create-application.handler';

/**
 * The answer of create, client settings and rotation: the details plus `client_secret`, present
 * exactly when this call issued a new secret. It is the only time the clear secret is ever answered.
 */
export function withSecret(details: TApplicationDetails, outcome: ApplicationWithSecret): TApplicationDetails & Pick<TApplicationWithSecret, 'client_secret'> {
  return {
    ...details,
    client_secret: outcome.secret ? { client_id: outcome.id, client_secret: outcome.secret.client_secret, issued_at: outcome.secret.issued_at } : null,
  };
}
