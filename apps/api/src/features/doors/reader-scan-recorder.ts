import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { TScanBatchAck } from '@rollcall/contracts';
import { CommandGateway, type CommandOutcome, type ConsistentOutcome } from '../../platform/commands/command-gateway';
import { formatPosition } from '../../platform/event-store/event-store.port';
import { ProjectionProgress } from '../../platform/projections/projection-progress';
import { RecordReaderScansCommand } from '../attendance/commands/record-reader-scans.handler';
import { ReaderHealthRecorder } from '../readers/reader-health-recorder';

/**
 * A reader's scans, recorded the same way whichever way they came (docs/readers.md): by
 * `POST reader/scans` or as a `scan_batch` frame on the reader's WebSocket. Both are the same
 * RecordReaderScansCommand, and both count as contact from the reader.
 */
@Injectable()
export class ReaderScanRecorder {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly commandBus: CommandBus,
    private readonly progress: ProjectionProgress,
    private readonly health: ReaderHealthRecorder,
  ) {}

  /**
   * `waitForReadModels`: answer once every read model shows the scans, as any write does (the
   * gateway's bounded wait). A reader reads nothing back (ADR 0013, 'As built') and may ask to skip
   * it (`X-Rollcall-Consistency: none`, or `consistency: 'none'` on the channel): answered as soon as
   * the scans are appended; the position and whether the read models show them are still given.
   */
  async record(command: RecordReaderScansCommand, waitForReadModels: boolean): Promise<ConsistentOutcome<TScanBatchAck>> {
    const outcome = waitForReadModels ? await this.gateway.execute<TScanBatchAck>(command) : await this.withoutWait(command);
    this.health.noteContact(command.readerId, outcome.value.received_at);
    return outcome;
  }

  private async withoutWait(command: RecordReaderScansCommand): Promise<ConsistentOutcome<TScanBatchAck>> {
    const outcome = await this.commandBus.execute<RecordReaderScansCommand, CommandOutcome<TScanBatchAck>>(command);
    return { value: outcome.value, position: formatPosition(outcome.position), consistent: this.progress.reached(outcome.position) };
  }
}
