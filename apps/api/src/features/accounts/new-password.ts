import { Inject, Injectable } from '@nestjs/common';
import { assertPasswordMeetsPolicy, DomainError, underField, type AccountState } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { PasswordHasher } from '../../platform/passwords/password-hasher';
import { PasswordStrength } from '../../platform/passwords/password-strength';
import { READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';

type Created = Extract<AccountState, { status: 'created' }>;

export interface PreparedPassword {
  passwordHash: string;
  reusesRecentPassword: boolean;
}

/**
 * Every path that sets a password of an existing account (an administrator's reset, the owner's
 * change) goes through here: the account's policy decides minimum length and zxcvbn score (checked
 * now, naming the rule) and how many recent hashes the new password is verified against (the
 * decider refuses a reuse). Without a policy any password of 1-255 characters is accepted.
 */
@Injectable()
export class NewPasswordService {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    private readonly hasher: PasswordHasher,
    private readonly strength: PasswordStrength,
  ) {}

  /** `field` is the input field errors are named after (`password`, or `new_password` for a change). */
  async prepare(account: Created, password: string, field = 'password'): Promise<PreparedPassword> {
    const policy = account.policyId
      ? await this.db.selectFrom('password_policies_v2').select(['title', 'min_length', 'min_strength', 'history']).where('id', '=', account.policyId).executeTakeFirst()
      : undefined;
    let reusesRecentPassword = false;
    if (policy) {
      const userInputs = [account.username, account.firstName, account.lastName, account.email, account.email.split('@')[0]];
      const score = policy.min_strength > 0 ? await this.strength.score(password, userInputs) : 0;
      try {
        assertPasswordMeetsPolicy(password, score, { title: policy.title, minLength: policy.min_length, minStrength: policy.min_strength });
      } catch (error) {
        throw error instanceof DomainError && field !== 'password' ? underField(error, field) : error;
      }
      if (policy.history) {
        const recent = account.passwordHistory.slice(0, policy.history);
        const matches = await Promise.all(recent.map((hash) => this.hasher.verify(hash, password)));
        reusesRecentPassword = matches.some(Boolean);
      }
    }
    return { passwordHash: await this.hasher.hash(password), reusesRecentPassword };
  }
}
