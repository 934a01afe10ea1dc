import { Inject, Injectable, Logger } from '@nestjs/common';
import { READER_TOKEN_PREFIX } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { IncomingMessage } from 'node:http';
import type { Kysely } from 'kysely';
import { clientAddressOf } from '../../platform/http/client-address';
import { READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { hashReaderToken } from './reader-token';

export interface AuthenticatedReader {
  readerId: string;
  tokenHash: string;
}

/** an HTTP request or a WebSocket upgrade */
export type ReaderRequest = IncomingMessage & { originalUrl?: string };

export const readerTokenInvalid = () => new DomainError('reader.token_invalid', 'Unknown, revoked or deleted reader token');

/**
 * The reader protocol's routes are not sessions (they are @Public() for the session guard): a reader
 * names itself with its own bearer token, found here by its SHA-256. The read model only names the
 * reader; the scan handler then checks the hash against the reader's stream, so a revoked or deleted
 * reader is refused at once, whatever the read model's lag. Every refusal is logged.
 */
@Injectable()
export class ReaderAuthenticator {
  private readonly logger = new Logger('ReaderAuth');

  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async authenticate(request: ReaderRequest): Promise<AuthenticatedReader> {
    const header = request.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
    if (token && token.startsWith(READER_TOKEN_PREFIX)) {
      const tokenHash = hashReaderToken(token);
      const row = await this.db.selectFrom('readers_v1').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
      if (row) return { readerId: row.id, tokenHash };
    }
    throw this.refuse(request, token ? 'unknown or revoked token' : 'no bearer token');
  }

  /** logs and returns the refusal (also used when the stream says the token is no longer the reader's) */
  refuse(request: ReaderRequest, why: string): DomainError {
    this.logger.warn(`reader request refused (${why}) from ${clientAddressOf(request) ?? 'unknown address'} ${request.method ?? ''} ${request.originalUrl ?? request.url ?? ''}`);
    return readerTokenInvalid();
  }
}
