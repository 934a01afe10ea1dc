import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { TWebAuthnResponse } from '@rollcall/contracts';
import { DomainError, invalidSecondFactor, type Passkey, type PasskeyCredential } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../../platform/config/app-config';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { APP_CONFIG, CLOCK, READ_DB } from '../../../platform/tokens';

/** SimpleWebAuthn and its X.509/ASN.1 stack load with the first passkey ceremony, not at start (about 25 MB of an idle API's memory) */
const webAuthn = () => import('@simplewebauthn/server');

/** how long the browser has to answer a WebAuthn challenge */
export const PASSKEY_CEREMONY_SECONDS = 180;

/**
 * What a challenge is for, and what it is bound to: the session that registers or confirms, or the
 * sign-in's own challenge (the second step), or nothing (a sign-in with a passkey alone).
 */
export type CeremonyPurpose = 'register' | 'confirm' | 'second_factor' | 'passwordless';

export interface PasskeyCeremonyTable {
  /** the WebAuthn challenge (base64url), as the browser signs it into clientDataJSON */
  challenge: string;
  purpose: CeremonyPurpose;
  /** a session id, a hash of the sign-in challenge, or '' */
  bound_to: string;
  expires_at: string;
}

declare module '../../../platform/read-db/read-database' {
  interface ReadDatabase {
    passkey_ceremonies: PasskeyCeremonyTable;
  }
}

/** the relying party a ceremony runs for: ROLLCALL_PUBLIC_URL's origin, else the origin the browser named */
export interface RelyingParty {
  id: string;
  origin: string;
}

/**
 * The COSE algorithms offered and accepted: EdDSA, ES256, RS256 (what authenticators make). Named,
 * so the library does not probe the runtime for ML-DSA (an experimental Node API that warns).
 */
const PASSKEY_ALGORITHMS = [-8, -7, -257];

/** what the second step binds its WebAuthn challenge to: the sign-in challenge, hashed (it is long and holds an account id) */
export const boundToSignIn = (signInChallenge: string) => createHash('sha256').update(signInChallenge).digest('base64url');

const passkeyInvalid = () => new DomainError('second_factor.passkey_invalid', 'This passkey could not be registered: try again');

/**
 * Passkeys (WebAuthn, docs/adr/0029) through SimpleWebAuthn: no CBOR, COSE or attestation parsing
 * of our own. Each ceremony's challenge is random, kept in `passkey_ceremonies` (beside the read
 * models, never rebuilt: a challenge is no business fact) with its purpose, what it is bound to and
 * a three-minute expiry, and deleted by the one call that answers it: single-use, also across API
 * processes sharing the database. Expired rows are swept as new ones are made.
 */
@Injectable()
export class PasskeyCeremonies implements OnModuleInit {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.schema
      .createTable('passkey_ceremonies')
      .ifNotExists()
      .addColumn('challenge', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('bound_to', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  }

  /**
   * The relying party: with ROLLCALL_PUBLIC_URL, its origin and host name (a browser elsewhere is
   * refused by the check of clientDataJSON's origin); without it, the origin of the browser's request
   * when it names the Host the request came to (servedOrigin, at the request's edge: a foreign Origin
   * is no relying party), as the OpenID Connect issuer follows the served URL. A passkey is bound to its RP id by the
   * authenticator, so a credential registered at one host name never answers for another.
   */
  relyingParty(requestOrigin: string | null | undefined): RelyingParty {
    const origin = this.config.publicUrl ? new URL(this.config.publicUrl).origin : originOf(requestOrigin);
    if (!origin) throw new DomainError('second_factor.passkey_origin_unknown', 'Passkeys need the address the console is served at: set ROLLCALL_PUBLIC_URL, or call from a browser at the address of this server (its Origin must name the Host the request came to)');
    return { id: new URL(origin).hostname, origin };
  }

  private async remember(challenge: string, purpose: CeremonyPurpose, boundTo: string): Promise<void> {
    const now = this.clock.now();
    await this.db.deleteFrom('passkey_ceremonies').where('expires_at', '<=', now.toISOString()).execute();
    const expiresAt = new Date(now.getTime() + PASSKEY_CEREMONY_SECONDS * 1000).toISOString();
    await this.db.insertInto('passkey_ceremonies').values({ challenge, purpose, bound_to: boundTo, expires_at: expiresAt }).execute();
  }

  /**
   * Takes the challenge the response signed, once: true if it was handed out for this purpose and
   * binding and has not expired. A second answer with it finds nothing.
   */
  private async take(response: TWebAuthnResponse, purpose: CeremonyPurpose, boundTo: string): Promise<string | null> {
    const challenge = challengeOf(response);
    if (!challenge) return null;
    const deleted = await this.db
      .deleteFrom('passkey_ceremonies')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('bound_to', '=', boundTo)
      .where('expires_at', '>', this.clock.now().toISOString())
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) === 1 ? challenge : null;
  }

  async registrationOptions(rp: RelyingParty, account: { id: string; username: string; displayName: string }, passkeys: Passkey[], sessionId: string): Promise<Record<string, unknown>> {
    const options = await (await webAuthn()).generateRegistrationOptions({
      rpName: 'Rollcall',
      rpID: rp.id,
      userName: account.username,
      userDisplayName: account.displayName,
      // the user handle: the account id's bytes, so a discoverable credential names its account
      userID: new TextEncoder().encode(account.id),
      challenge: randomBytes(32),
      timeout: PASSKEY_CEREMONY_SECONDS * 1000,
      attestationType: 'none',
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      excludeCredentials: passkeys.map((p) => ({ id: p.credential.credentialId, transports: p.credential.transports })),
      // discoverable, so the same passkey can sign in alone where the policy allows it
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await this.remember(options.challenge, 'register', sessionId);
    return options as unknown as Record<string, unknown>;
  }

  /** the verified credential of a registration response, or passkey_invalid */
  async verifyRegistration(rp: RelyingParty, response: TWebAuthnResponse, sessionId: string): Promise<PasskeyCredential> {
    const challenge = await this.take(response, 'register', sessionId);
    if (!challenge) throw passkeyInvalid();
    try {
      const verified = await (await webAuthn()).verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
        supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      });
      if (!verified.verified) throw passkeyInvalid();
      const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
      // a credential belongs to one account (WebAuthn L2 §7.1 step 22; R24 finding 8): another's answers as one's own twice would
      const taken = await this.db.selectFrom('passkeys_v1').select('account_id').where('credential_id', '=', credential.id).executeTakeFirst();
      if (taken) throw new DomainError('second_factor.passkey_registered', 'This passkey is registered already');
      return {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: (credential.transports ?? []).slice(0, 10),
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
      };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw passkeyInvalid();
    }
  }

  /**
   * Options for `navigator.credentials.get`: the account's passkeys (the second step, a
   * confirmation), or none at all (a sign-in with a passkey alone: the browser offers the
   * discoverable ones, and the user verification is required then).
   */
  async authenticationOptions(rp: RelyingParty, passkeys: Passkey[] | null, purpose: Exclude<CeremonyPurpose, 'register'>, boundTo: string): Promise<Record<string, unknown>> {
    const options = await (await webAuthn()).generateAuthenticationOptions({
      rpID: rp.id,
      challenge: randomBytes(32),
      timeout: PASSKEY_CEREMONY_SECONDS * 1000,
      allowCredentials: passkeys?.map((p) => ({ id: p.credential.credentialId, transports: p.credential.transports as never })),
      userVerification: passkeys === null ? 'required' : 'preferred',
    });
    await this.remember(options.challenge, purpose, boundTo);
    return options as unknown as Record<string, unknown>;
  }

  /**
   * Checks an assertion of one of `passkeys` against a challenge handed out for `purpose` and
   * `boundTo` (taken, so it answers once). Any refusal is the one `auth.second_factor_invalid`.
   */
  async verifyAuthentication(rp: RelyingParty, response: TWebAuthnResponse, passkeys: Passkey[], purpose: Exclude<CeremonyPurpose, 'register'>, boundTo: string): Promise<{ passkey: Passkey; counter: number; userVerified: boolean }> {
    const passkey = passkeys.find((p) => p.credential.credentialId === response.id);
    const challenge = await this.take(response, purpose, boundTo);
    if (!passkey || !challenge) throw invalidSecondFactor();
    try {
      const verified = await (await webAuthn()).verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: { id: passkey.credential.credentialId, publicKey: new Uint8Array(Buffer.from(passkey.credential.publicKey, 'base64url')), counter: passkey.credential.counter, transports: passkey.credential.transports },
        requireUserVerification: purpose === 'passwordless',
      });
      if (!verified.verified) throw invalidSecondFactor();
      return { passkey, counter: verified.authenticationInfo.newCounter, userVerified: verified.authenticationInfo.userVerified };
    } catch {
      throw invalidSecondFactor();
    }
  }
}

/** the challenge a response signed, read from its clientDataJSON (base64url JSON, no CBOR) */
export function challengeOf(response: TWebAuthnResponse): string | null {
  const clientData = response.response.clientDataJSON;
  if (typeof clientData !== 'string') return null;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 512 ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/** the user handle a discoverable credential's assertion carries (the account id at registration) */
export function userHandleOf(response: TWebAuthnResponse): string | null {
  const handle = response.response.userHandle;
  if (typeof handle !== 'string' || !handle) return null;
  return Buffer.from(handle, 'base64url').toString('utf8');
}

function originOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
