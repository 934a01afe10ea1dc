/** The read tables of second factors (docs/adr/0022, docs/adr/0025): what is enrolled, never a secret. */
export interface SecondFactorTable {
  account_id: string;
  totp_enrolment_id: string | null;
  /** null: no authenticator app; 'pending': waiting for its first code */
  totp_status: 'pending' | 'enrolled' | null;
  totp_enrolled_at: string | null;
  totp_last_used_at: string | null;
  recovery_codes_remaining: number;
  recovery_codes_generated_at: string | null;
}

/** passkeys_v1: each registered passkey with its name (docs/adr/0029); the credential stays in the events */
export interface PasskeyTable {
  passkey_id: string;
  account_id: string;
  name: string;
  /** the WebAuthn credential id (base64url): a sign-in with a passkey alone finds its account by it */
  credential_id: string;
  synced: number;
  registered_at: string;
  last_used_at: string | null;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    second_factors_v1: SecondFactorTable;
    passkeys_v1: PasskeyTable;
  }
}
