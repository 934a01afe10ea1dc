import { EventEmitter } from 'node:events';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { TLiveMessage } from '@rollcall/contracts';
import type { StoredEvent } from '../event-store/event-store.port';
import { ProjectionProgress } from '../projections/projection-progress';

/**
 * What a feature pushes live (its `<area>.live.ts`), given to LiveFeed by the composition root: the
 * read models whose commits it turns into messages, the emitter event they go out on, and when.
 */
export interface LiveSource {
  projections: ReadonlySet<string>;
  channel: string;
  /**
   * 'commit': one array per commit, as soon as that read model holds it (a busy door's commit holds
   * many scans, so each console gets one frame per commit); 'every-projection': one message at a
   * time, once every projection holds the commit (when who may see a message depends on other read
   * models), in order.
   */
  delivery: 'commit' | 'every-projection';
  messages(projection: string, events: readonly StoredEvent[]): TLiveMessage[];
}

/** the features' live sources (the composition root lists them) */
export const LIVE_SOURCES = Symbol('LIVE_SOURCES');

/** emitted before every push, so a listener can cork the sockets before the frames go out */
export const BEFORE_PUSH = 'before-push';

/** how long an 'every-projection' message waits for the slowest projection before it goes out anyway */
const EVERY_PROJECTION_WAIT_MS = 5000;

/**
 * What connected consoles see live. A message goes out once the read model holding its change has
 * committed, so a console that refetches on the message sees the new rows.
 */
@Injectable()
export class LiveFeed implements OnModuleInit, OnModuleDestroy {
  readonly emitter = new EventEmitter();
  private unsubscribe: (() => void) | null = null;
  private inOrder: Promise<void> = Promise.resolve();

  constructor(
    private readonly progress: ProjectionProgress,
    @Inject(LIVE_SOURCES) private readonly sources: readonly LiveSource[],
  ) {
    this.emitter.setMaxListeners(0);
  }

  onModuleInit(): void {
    this.unsubscribe = this.progress.onAdvanced((projection, events) => {
      if (events.length === 0) return;
      for (const source of this.sources) {
        if (!source.projections.has(projection)) continue;
        const messages = source.messages(projection, events);
        if (messages.length === 0) continue;
        if (source.delivery === 'commit') {
          this.push(source.channel, messages);
          continue;
        }
        // the chain keeps the messages in order while each waits for every projection
        const last = events[events.length - 1].position;
        this.inOrder = this.inOrder
          .then(() => this.progress.waitFor(last, EVERY_PROJECTION_WAIT_MS))
          .then(() => messages.forEach((message) => this.push(source.channel, message)));
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** one message on the channel of single messages ('message') */
  publish(message: TLiveMessage): void {
    this.push(MESSAGE_CHANNEL, message);
  }

  private push(channel: string, payload: TLiveMessage | TLiveMessage[]): void {
    this.emitter.emit(BEFORE_PUSH);
    this.emitter.emit(channel, payload);
  }
}

/** the channel of messages that go out one at a time */
export const MESSAGE_CHANNEL = 'message';
