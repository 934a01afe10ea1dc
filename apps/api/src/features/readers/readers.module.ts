import { Module } from '@nestjs/common';
import { ChangeReaderHandler } from './commands/change-reader.handler';
import { ResetScanSequenceHandler } from './commands/reset-scan-sequence.handler';
import { DeleteReaderHandler } from './commands/delete-reader.handler';
import { IssueReaderTokenHandler } from './commands/issue-reader-token.handler';
import { RegisterReaderHandler } from './commands/register-reader.handler';
import { RevokeReaderTokenHandler } from './commands/revoke-reader-token.handler';
import { FindCardHolderHandler } from './queries/find-card-holder.query';
import { GetReaderHandler } from './queries/get-reader.query';
import { ListReadersHandler } from './queries/list-readers.query';
import { ReaderAuthenticator } from './reader-authenticator';
import { ReaderHealthRecorder } from './reader-health-recorder';
import { ReadersV2Controller } from './rest/readers.v2.controller';

/**
 * Door readers (docs/adr/0013, docs/readers.md): the administrators' REST v2 and (trpc/readers.router.ts)
 * tRPC over the same handlers; the doors' own protocol (scans, health, the reader channel),
 * authenticated by each reader's own token, is ../doors, registered first.
 * Scans become attendance in ../attendance.
 */
@Module({
  controllers: [ReadersV2Controller],
  exports: [ReaderAuthenticator, ReaderHealthRecorder],
  providers: [RegisterReaderHandler, ChangeReaderHandler, ResetScanSequenceHandler, IssueReaderTokenHandler, RevokeReaderTokenHandler, DeleteReaderHandler, ListReadersHandler, GetReaderHandler, FindCardHolderHandler, ReaderAuthenticator, ReaderHealthRecorder],
})
export class ReadersModule {}
