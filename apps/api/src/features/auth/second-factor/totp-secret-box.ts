import { Inject, Injectable } from '@nestjs/common';
import type { SealedTotpSecret } from '@rollcall/domain';
import type { AppConfig } from '../../../platform/config/app-config';
import { isSealed, loadSecretsKeys, seal, unseal, type SecretsKeys } from '../../../platform/secrets/secrets-key';
import { APP_CONFIG } from '../../../platform/tokens';

/**
 * TOTP secrets at rest: unlike a password, a TOTP secret must be read back to check a code, so it
 * cannot be hashed. It is sealed with the secrets key (AES-256-GCM, platform/secrets/secrets-key.ts,
 * the key that seals the OpenID Connect keys) before it goes into its event, bound to the account
 * and enrolment (a sealed value copied into another stream does not open), and declared `secret` in
 * the event redaction: neither the event log, a history, an export nor a backup of the events
 * without the key shows it (docs/adr/0025).
 */
@Injectable()
export class TotpSecretBox {
  private keys: SecretsKeys | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private secrets(): SecretsKeys {
    // the same key (file) the OpenID Connect provider loads; created on the first start if missing
    this.keys ??= loadSecretsKeys(this.config);
    return this.keys;
  }

  seal(accountId: string, enrolmentId: string, secretBase32: string): SealedTotpSecret {
    return { ...seal(this.secrets().current, secretBase32, contextOf(accountId, enrolmentId)) };
  }

  /** the clear secret, or null when neither the current nor the previous key opens it */
  open(accountId: string, enrolmentId: string, sealed: SealedTotpSecret): string | null {
    if (!isSealed(sealed)) return null;
    const keys = this.secrets();
    const context = contextOf(accountId, enrolmentId);
    return unseal(keys.current, sealed, context) ?? (keys.previous ? unseal(keys.previous, sealed, context) : null);
  }
}

const contextOf = (accountId: string, enrolmentId: string) => `second-factors/${accountId}/totp/${enrolmentId}`;
