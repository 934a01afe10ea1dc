import type { TFunction } from 'i18next';
import type { TSecondFactorStatus } from '@rollcall/contracts';

/**
 * What the administrator's card says an account has enrolled: the app, the passkeys (counted, in the
 * plural forms of the language: 'a passkey', '3 passkeys') and the recovery codes left (counted the
 * same way, handed to the sentence as its own translated part), or that nothing is (and whether its
 * policy requires something).
 */
export function secondFactorsSummary(status: Pick<TSecondFactorStatus, 'factors' | 'totp_pending' | 'required' | 'recovery_codes'>, t: TFunction): string {
  const passkeys = status.factors.filter((factor) => factor.kind === 'passkey').length;
  const app = status.factors.some((factor) => factor.kind === 'totp');
  if (!app && passkeys === 0 && !status.totp_pending) return t(status.required ? 'secondFactors.reset.noneRequired' : 'secondFactors.reset.none');
  const codesLeft = t('secondFactors.reset.codesLeft', { count: status.recovery_codes.remaining });
  if (passkeys === 0) return t('secondFactors.reset.enrolled', { codesLeft });
  return t(app ? 'secondFactors.reset.enrolledAppAndPasskeys' : 'secondFactors.reset.enrolledPasskeys', { count: passkeys, codesLeft });
}
