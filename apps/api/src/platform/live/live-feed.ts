import { EventEmitter } from 'node:events';
import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { TLiveMessage } from '@rollcall/contracts';
import { attendanceLiveMessages } from '../../features/attendance/attendance-live';
import { formatPosition } from '../event-store/event-store.port';
import { ProjectionProgress } from '../projections/projection-progress';

/** the read models whose committed events become attendance messages (attendance/attendance-live.ts) */
const ATTENDANCE_PROJECTIONS = new Set(['attendance_slots_v1', 'unknown_cards_v1', 'readers_v1']);

/**
 * The emitter event that carries one commit's attendance messages together, as an array: at a busy
 * door a commit holds many scans, and each scan is two messages (the scan and the presence change),
 * so each console gets one WebSocket frame per commit instead of one per message.
 */
export const ATTENDANCE_BATCH = 'attendance';

/** how long an account change waits for the slowest projection before it goes out anyway */
const ACCOUNT_CHANGE_WAIT_MS = 5000;

/**
 * What connected consoles see live: account changes one by one ('message'), attendance a commit at a
 * time (ATTENDANCE_BATCH). A message goes out once the read model holding its change has
 * committed, so a console that refetches on the message sees the new rows.
 */
@Injectable()
export class LiveFeed implements OnModuleInit, OnModuleDestroy {
  readonly emitter = new EventEmitter();
  private unsubscribe: (() => void) | null = null;
  private accountChanges: Promise<void> = Promise.resolve();

  constructor(private readonly progress: ProjectionProgress) {
    this.emitter.setMaxListeners(0);
  }

  onModuleInit(): void {
    this.unsubscribe = this.progress.onAdvanced((projection, events) => {
      if (ATTENDANCE_PROJECTIONS.has(projection)) {
        const messages = attendanceLiveMessages(projection, events);
        if (messages.length) this.emitter.emit(ATTENDANCE_BATCH, messages);
        return;
      }
      if (projection !== 'accounts_v2' || events.length === 0) return;
      const messages: TLiveMessage[] = [];
      for (const event of events) {
        if (!event.streamId.startsWith('account-')) continue;
        const accountId = event.streamId.slice('account-'.length);
        messages.push({ kind: 'account.changed', accountId, position: formatPosition(event.position) });
      }
      if (messages.length === 0) return;
      // who may see an account change depends on other read models (its memberships, docs/adr/0011), so
      // the change goes out once every projection holds it; the chain keeps the messages in order
      const last = events[events.length - 1].position;
      this.accountChanges = this.accountChanges
        .then(() => this.progress.waitFor(last, ACCOUNT_CHANGE_WAIT_MS))
        .then(() => messages.forEach((message) => this.publish(message)));
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  publish(message: TLiveMessage): void {
    this.emitter.emit('message', message);
  }
}
