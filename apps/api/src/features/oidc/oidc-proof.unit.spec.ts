import { describe, expect, it } from 'vitest';
import type { SecondFactorState } from '@rollcall/domain';
import { ACR_PASSWORD, ACR_SECOND_FACTOR, stillProven } from './oidc-provider.host';

const totp = { enrolmentId: 'e', sealedSecret: {} as never, confirmed: true, lastUsedStep: null, enrolledAt: '2026-01-01T00:00:00Z' };
const passkey = { passkeyId: 'p', name: 'Key', credential: {} as never, registeredAt: '2026-01-01T00:00:00Z' };
const factors = (state: Partial<SecondFactorState>) => ({ totp: null, passkeys: [], recoveryCodes: [], ...state });

describe('what a refreshed ID token may still claim (review R24b, F2)', () => {
  it('keeps the methods the account still holds', () => {
    expect(stillProven(['pwd', 'otp'], factors({ totp }))).toEqual({ amr: ['pwd', 'otp'], acr: ACR_SECOND_FACTOR });
    expect(stillProven(['pwd', 'hwk', 'user'], factors({ passkeys: [passkey] }))).toEqual({ amr: ['pwd', 'hwk', 'user'], acr: ACR_SECOND_FACTOR });
    expect(stillProven(['hwk', 'user', 'mfa'], factors({ passkeys: [passkey] }))).toEqual({ amr: ['hwk', 'user', 'mfa'], acr: ACR_SECOND_FACTOR });
    // a recovery code is an otp: kept while an unused one is left
    expect(stillProven(['pwd', 'otp'], factors({ recoveryCodes: [null, 'hash'] }))).toEqual({ amr: ['pwd', 'otp'], acr: ACR_SECOND_FACTOR });
    expect(stillProven(['pwd'], factors({}))).toEqual({ amr: ['pwd'], acr: ACR_PASSWORD });
  });

  it('drops a factor the account no longer has, and the second-factor level with it', () => {
    expect(stillProven(['pwd', 'otp'], factors({}))).toEqual({ amr: ['pwd'], acr: ACR_PASSWORD });
    expect(stillProven(['pwd', 'otp'], factors({ totp: { ...totp, confirmed: false }, recoveryCodes: [null, null] }))).toEqual({ amr: ['pwd'], acr: ACR_PASSWORD });
    expect(stillProven(['pwd', 'hwk', 'user'], factors({ totp }))).toEqual({ amr: ['pwd'], acr: ACR_PASSWORD });
    expect(stillProven(['hwk', 'user', 'mfa'], factors({}))).toEqual({ amr: [], acr: ACR_PASSWORD });
  });
});
