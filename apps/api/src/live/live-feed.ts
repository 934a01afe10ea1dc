import { EventEmitter } from 'node:events';
import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { TLiveMessage } from '@rollcall/contracts';
import { formatPosition } from '../event-store/event-store.port';
import { ProjectionProgress } from '../projections/projection-progress';

/**
 * What connected consoles see live. A message goes out once the read model holding its change has
 * committed, so a console that refetches on the message sees the new rows.
 */
@Injectable()
export class LiveFeed implements OnModuleInit, OnModuleDestroy {
  readonly emitter = new EventEmitter();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly progress: ProjectionProgress) {
    this.emitter.setMaxListeners(0);
  }

  onModuleInit(): void {
    this.unsubscribe = this.progress.onAdvanced((projection, events) => {
      if (projection !== 'accounts_v2') return;
      for (const event of events) {
        if (!event.streamId.startsWith('account-')) continue;
        const accountId = event.streamId.slice('account-'.length);
        this.publish({ kind: 'account.changed', accountId, position: formatPosition(event.position) });
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  publish(message: TLiveMessage): void {
    this.emitter.emit('message', message);
  }
}
