import { randomBytes } from 'node:crypto';
import { READER_TOKEN_PREFIX } from '@rollcall/contracts';
import { hashToken } from '../../platform/access/session-token';

/** 'rcr_' + 256 random bits; lists show 'rcr_' and the next 8 characters to tell readers' tokens apart. */
export const newReaderToken = () => `${READER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
export const READER_TOKEN_DISPLAY_LENGTH = READER_TOKEN_PREFIX.length + 8;
/** only the SHA-256 of a reader's token is kept, as for access tokens */
export const hashReaderToken = (token: string) => hashToken(token);
