import { Inject, Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../tokens';

/** @node-rs/argon2's Algorithm is a const enum, which isolated-module compilers cannot inline. */
const ARGON2ID = 2;

/**
 * argon2id with OWASP's parameters (m=19 MiB, t=2, p=1) unless configured otherwise. Verification
 * of an unknown user still runs against a dummy hash so timing does not reveal who exists.
 */
@Injectable()
export class PasswordHasher {
  private dummyHash: Promise<string> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID, memoryCost: this.config.argon2.memoryCost, timeCost: this.config.argon2.timeCost, parallelism: 1 });
  }

  async verify(phc: string | null, password: string): Promise<boolean> {
    if (!phc) {
      this.dummyHash ??= this.hash('rollcall-dummy-password');
      await verify(await this.dummyHash, password).catch(() => false);
      return false;
    }
    return verify(phc, password).catch(() => false);
  }
}
