import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@rollcall/domain';
import ipaddr from 'ipaddr.js';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../../platform/config/app-config';
import { APP_CONFIG } from '../../platform/tokens';

/** 429 `rate.limited`; `retryAfterSeconds` becomes the Retry-After header on every surface (http/retry-after.ts). */
export class SignInThrottledError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    // the wait is in Retry-After only: the body is the same for every throttled attempt, whatever the account
    super('rate.limited', 'Too many failed sign-ins: wait a moment (Retry-After says how long) and try again');
  }
}

/** One sign-in attempt's hold on the throttle: a failure keeps it, anything else gives it back. */
export interface SignInAttempt {
  /** signed in: the username's failures from this address are forgotten (they count in a row), the address's point is given back */
  succeeded(): Promise<void>;
  /** the attempt failed through our own fault (storage down), not its credentials: it does not count */
  release(): Promise<void>;
}

/**
 * The key of a client address: an IPv6 client holds a whole /64 (one customer's prefix), so it is
 * counted as one address; IPv4-mapped IPv6 is plain IPv4.
 */
export function addressKey(address: string | null): string {
  if (!address || !ipaddr.isValid(address)) return `other:${(address ?? 'unknown').slice(0, 64)}`;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/**
 * Throttles every sign-in path (REST v1, v2 and /api, tRPC `auth.signIn`, the OIDC login form) in
 * the one place they all pass: the sign-in command. Two fixed windows, counted in this process's
 * memory by rate-limiter-flexible:
 * - per address: N failed sign-ins per window, whatever the usernames (credential stuffing, spraying);
 * - per username and address: M failed sign-ins in a row per window (guessing one account's password);
 *   a successful sign-in from that address starts the count again.
 * Only failures count: each attempt takes a point before its password is checked (so a parallel
 * burst cannot slip past the limit while its hashes are being verified) and gives it back unless its
 * credentials were refused. A full window refuses every attempt from there, the right password
 * included, with 429 and Retry-After, before any account is looked up: so the answer is the same
 * for unknown, wrong, locked and disabled accounts. The account lockout (every account has one, see
 * the sign-in command) is the rule across addresses.
 */
@Injectable()
export class SignInThrottle {
  private readonly byAddress: RateLimiterMemory;
  private readonly byUsernameAndAddress: RateLimiterMemory;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { perAddress, perUsernameAndAddress } = config.signIn.throttle;
    this.byAddress = new RateLimiterMemory({ keyPrefix: 'sign-in-address', points: perAddress.failures, duration: perAddress.windowSeconds });
    this.byUsernameAndAddress = new RateLimiterMemory({ keyPrefix: 'sign-in-username', points: perUsernameAndAddress.failures, duration: perUsernameAndAddress.windowSeconds });
  }

  /** Takes a point for this attempt, or refuses it with SignInThrottledError when a window is full. */
  async attempt(username: string, address: string | null): Promise<SignInAttempt> {
    const byAddress = addressKey(address);
    // the username as the sign-in looks it up (trimmed by the schema, then lower case)
    const byUsername = `${byAddress}|${username.toLowerCase()}`;
    try {
      await this.byAddress.consume(byAddress);
    } catch (refused) {
      // a refused attempt is not one more failure: the window ends when it would have
      await this.byAddress.reward(byAddress);
      throw throttled(refused);
    }
    try {
      await this.byUsernameAndAddress.consume(byUsername);
    } catch (refused) {
      await this.byUsernameAndAddress.reward(byUsername);
      await this.byAddress.reward(byAddress);
      throw throttled(refused);
    }
    return this.holding(byAddress, byUsername);
  }

  /**
   * An anonymous passkey ceremony (auth.passkeySignInOptions, which keeps a challenge): a point of the
   * address's window, kept as a failure's until a sign-in succeeds with a passkey from that address
   * (ceremonyUsed), so a flood of options answers 429 before any challenge is written (R24 finding 6).
   */
  async ceremony(address: string | null): Promise<void> {
    const byAddress = addressKey(address);
    try {
      await this.byAddress.consume(byAddress);
    } catch (refused) {
      await this.byAddress.reward(byAddress);
      throw throttled(refused);
    }
  }

  /** a passwordless sign-in succeeded from this address: one ceremony's point back (its options took it) */
  async ceremonyUsed(address: string | null): Promise<void> {
    await giveBack(this.byAddress, addressKey(address));
  }

  private holding(byAddress: string, byUsername: string): SignInAttempt {
    let settled = false;
    return {
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.byUsernameAndAddress.delete(byUsername);
        await giveBack(this.byAddress, byAddress);
      },
      release: async () => {
        if (settled) return;
        settled = true;
        await giveBack(this.byUsernameAndAddress, byUsername);
        await giveBack(this.byAddress, byAddress);
      },
    };
  }
}

/** A point back, unless its window has ended meanwhile (a new window starts at zero, never below). */
async function giveBack(limiter: RateLimiterMemory, key: string): Promise<void> {
  const current = await limiter.get(key);
  if (current && current.consumedPoints > 0) await limiter.reward(key);
}

function throttled(refused: unknown): Error {
  // the memory limiter rejects with its result; anything else is a fault of ours, not a refusal
  if (!(refused instanceof RateLimiterRes)) return refused instanceof Error ? refused : new Error(String(refused));
  return new SignInThrottledError(Math.max(1, Math.ceil(refused.msBeforeNext / 1000)));
}
