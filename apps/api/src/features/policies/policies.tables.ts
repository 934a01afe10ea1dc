/** The read tables of policies (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
export interface PasswordPolicyTable {
  id: string;
  title: string;
  description: string;
  min_length: number;
  min_strength: number;
  history: number | null;
  max_age: number | null;
  lockout: number;
  /** seconds */
  lockout_duration: number;
  created_at: string;
  /** null only for a moment in a table built before the column existed (see the projection) */
  updated_at: string | null;
}

/** who under a policy must sign in with a second factor (docs/adr/0025); no row: off */
export interface PasswordPolicySecondFactorTable {
  policy_id: string;
  requirement: 'off' | 'all' | 'administrators';
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    password_policies_v2: PasswordPolicyTable;
    password_policy_second_factor_v1: PasswordPolicySecondFactorTable;
  }
}
