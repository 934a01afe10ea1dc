import { Injectable } from '@nestjs/common';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * zxcvbn-ts strength scores (0-4) for policy checks. The dictionaries take a few hundred
 * milliseconds to load, so they load on the first check, not at start-up; a server that never
 * checks a policy with a strength above 0 never loads them.
 */
@Injectable()
export class PasswordStrength {
  private factory: Promise<ZxcvbnFactory> | null = null;

  /**
   * `userInputs` are what an attacker knows about the person (username, names, e-mail): a password
   * built from them scores low.
   */
  async score(password: string, userInputs: string[]): Promise<number> {
    // a failed load is not remembered: the next check tries again
    this.factory ??= load().catch((error: unknown) => {
      this.factory = null;
      throw error;
    });
    return (await this.factory).check(password, userInputs.filter(Boolean)).score;
  }
}

async function load(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory: Factory }, common, en] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]);
  return new Factory({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations });
}
