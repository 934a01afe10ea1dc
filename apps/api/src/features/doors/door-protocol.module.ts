import { Module } from '@nestjs/common';
import { ReadersModule } from '../readers/readers.module';
import { ReaderChannel } from './reader-channel';
import { ReaderChannelScans } from './reader-channel-scans';
import { ReaderScanRecorder } from './reader-scan-recorder';
import { ReaderProtocolController } from './rest/reader-protocol.controller';

/**
 * How doors talk to Rollcall, authenticated by each reader's own token: scans and batches (which become
 * attendance), health reports, and the reader channel (a WebSocket per agent, which carries scans too).
 * On its own, so the application module can register it before every other route: Express tries routes in registration order, one after
 * another, and a door's scan, the busiest request there is, used to be tried against about 350 routes first
 * (docs/benchmarks.md, 'What bounds scan ingest now': routing was about a tenth of the ingest profile).
 */
@Module({
  imports: [ReadersModule],
  controllers: [ReaderProtocolController],
  providers: [ReaderChannel, ReaderChannelScans, ReaderScanRecorder],
})
export class DoorProtocolModule {}
