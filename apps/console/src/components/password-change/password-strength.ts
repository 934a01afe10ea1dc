import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * zxcvbn-ts, the library the API checks a policy's minimum strength with (the same dictionaries),
 * loaded on the first password typed: its dictionaries are large, and a console that never changes
 * a password never downloads them. A failed load is not remembered: the next try loads again.
 */
let factory: Promise<ZxcvbnFactory> | null = null;

async function load(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory: Factory }, common, en] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]);
  return new Factory({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations });
}

/** the password's zxcvbn score, 0 (too guessable) to 4 (very unguessable); `userInputs` score low */
export async function passwordScore(password: string, userInputs: readonly string[] = []): Promise<number> {
  factory ??= load().catch((error: unknown) => {
    factory = null;
    throw error;
  });
  return (await factory).check(password, userInputs.filter(Boolean)).score;
}
