import { Module } from '@nestjs/common';
import { ReadersModule } from './readers.module';
import { ReaderProtocolController } from './rest/reader-protocol.controller';

/**
 * The reader protocol (scans, batches, health) on its own, so the application module can register
 * it before every other route: Express tries routes in registration order, one after another, and
 * a door's scan, the busiest request there is, used to be tried against about 350 routes first
 * (issue 10: routing was about a tenth of the ingest profile).
 */
@Module({
  imports: [ReadersModule],
  controllers: [ReaderProtocolController],
})
export class ReaderProtocolModule {}
