import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@rollcall/domain';

/**
 * Recovery codes: ten per set, each 16 characters of a 31-letter alphabet without look-alikes (79
 * random bits), shown as four groups of four. Stored as SHA-256 of the account id and the code, like
 * session and access tokens (docs/adr/0025): 79 random bits cannot be guessed
 * from a hash, so a slow hash (argon2) would add nothing but cost at every use, and a keyed hash
 * would tie the codes to the secrets key's rotation.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 16;

function newCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/** a code as typed: case, spaces and dashes do not matter */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');

export const hashRecoveryCode = (accountId: string, code: string): string =>
  createHash('sha256').update(`rollcall recovery code\0${accountId}\0${normalizeRecoveryCode(code)}`).digest('hex');

/** a new set: the codes to show once, and their hashes to store */
export function newRecoveryCodes(accountId: string): { codes: string[]; hashes: string[] } {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  return { codes: [...codes], hashes: [...codes].map((code) => hashRecoveryCode(accountId, code)) };
}
