import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { erasePersonalData, PERSONAL_DATA_ERASED_EVENT, personalDataRuleOf, personalDataSubject, type PersonalDataRule } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { AppendOptions, AppendResult, EventStore, NewEvent, StoredEvent, StreamRead, StreamWrite, SubscribeOptions, Subscription } from '../event-store/event-store.port';
import type { PersonalDataKeys } from './personal-data-keys.port';

/** the payload key that carries the sealed fields in the stored event */
export const SEALED_FIELD = 'sealedPersonalData';
const FORMAT = 'v1';
const IV_BYTES = 12;
/** keys kept in memory; past this the cache starts again (a key is one small read away) */
const CACHE_LIMIT = 100_000;

type Payload = Record<string, unknown>;

/** AES-256-GCM; the subject and event type are authenticated with it, so a sealed blob cannot be moved to another account or event */
export function seal(key: Buffer, subject: string, eventType: string, value: unknown): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`${subject}|${eventType}`));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

export function unseal(key: Buffer, subject: string, eventType: string, text: string): unknown {
  const [format, iv, tag, sealed] = text.split('.');
  if (format !== FORMAT) throw new Error(`unknown sealed personal data format '${format}'`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(`${subject}|${eventType}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8'));
}

const isSealed = (event: StoredEvent) => typeof (event.data as Payload | null)?.[SEALED_FIELD] === 'string';
/** events the vault must look at on the way out: personal ones (sealed or, from before the vault, in clear) and erasures */
const concernsPersonalData = (event: StoredEvent) => personalDataRuleOf(event.type) !== undefined || event.type === PERSONAL_DATA_ERASED_EVENT;

/** a subject's key as far as this process knows: the key, destroyed (a tombstone is stored), or never made */
type KnownKey = Buffer | 'erased' | 'none';

/**
 * The event store as everyone else sees it (docs/adr/0015): on the way in, each event's personal
 * fields (libs/contracts personal-data.ts) are sealed with its account's key; on the way out they are
 * opened again, or read as erased once the key is gone. Commands, projections, the event log, history,
 * time travel and `npm run replay` all read through here, so an erasure reaches each of them without
 * any of them knowing. Storing `AccountPersonalDataErased` destroys the key; reading it destroys the
 * key too (idempotent), which also finishes an erasure a crash interrupted between the two.
 */
export class PersonalDataVault implements EventStore {
  private readonly cache = new Map<string, KnownKey>();

  constructor(
    private readonly inner: EventStore,
    private readonly keys: PersonalDataKeys,
  ) {}

  async appendToStream(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const result = await this.inner.appendToStream(streamId, await this.sealAll(events), options);
    if (!result.duplicate) await this.destroyErased(events);
    return result;
  }

  async appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]> {
    const sealed: StreamWrite[] = [];
    for (const write of writes) sealed.push({ ...write, events: await this.sealAll(write.events) });
    const results = await this.inner.appendToStreams(sealed);
    await this.destroyErased(writes.flatMap((write) => write.events));
    return results;
  }

  async readStream(streamId: string, fromVersion?: number): Promise<StoredEvent[]> {
    return this.openAll(await this.inner.readStream(streamId, fromVersion));
  }

  async readStreams(reads: readonly StreamRead[]): Promise<StoredEvent[][]> {
    const streams = await this.inner.readStreams(reads);
    // opened together: the keys of every stream's subjects are loaded in one go
    const opened = await this.openAll(streams.flat());
    let start = 0;
    return streams.map((events) => opened.slice(start, (start += events.length)));
  }

  async readAll(from: StoredEvent['position'], limit: number): Promise<StoredEvent[]> {
    return this.openAll(await this.inner.readAll(from, limit));
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.inner.subscribeToAll({ ...options, onEvents: async (events) => options.onEvents(await this.openAll(events)) });
  }

  headPosition() {
    return this.inner.headPosition();
  }

  async close(): Promise<void> {
    await this.inner.close();
    await this.keys.close();
  }

  private async sealAll(events: NewEvent[]): Promise<NewEvent[]> {
    if (!events.some((event) => personalDataRuleOf(event.type))) return events;
    const sealed: NewEvent[] = [];
    for (const event of events) {
      const rule = personalDataRuleOf(event.type);
      sealed.push(rule ? { ...event, data: await this.sealOne(event.type, event.data as Payload, rule) } : event);
    }
    return sealed;
  }

  private async sealOne(eventType: string, data: Payload, rule: PersonalDataRule): Promise<Payload> {
    const subject = personalDataSubject(data);
    const cached = this.cache.get(subject);
    const key = cached instanceof Buffer ? cached : cached === 'erased' ? null : await this.keys.obtain(subject);
    // the decider refuses every change to an erased account; this guards a path that forgot to ask it
    if (key === null) throw new DomainError('account.erased', "This account's personal data has already been erased");
    this.remember(subject, key);
    const open: Payload = {};
    const rest: Payload = { ...data };
    for (const field of rule.fields) {
      open[field] = data[field];
      delete rest[field];
    }
    return { ...rest, [SEALED_FIELD]: seal(key, subject, eventType, open) };
  }

  private async openAll(events: StoredEvent[]): Promise<StoredEvent[]> {
    const wanted = new Set<string>();
    for (const event of events) {
      if (!concernsPersonalData(event)) continue;
      const subject = personalDataSubject(event.data);
      if (!this.cache.has(subject)) wanted.add(subject);
    }
    if (wanted.size > 0) {
      const found = await this.keys.load([...wanted]);
      for (const subject of wanted) this.remember(subject, found.get(subject) ?? 'none');
    }
    let opened: StoredEvent[] | null = null;
    for (let index = 0; index < events.length; index += 1) {
      const event = events[index];
      if (event.type === PERSONAL_DATA_ERASED_EVENT) await this.destroyKey(personalDataSubject(event.data), (event.data as { erasedAt: string }).erasedAt);
      if (!personalDataRuleOf(event.type)) continue;
      // in clear and not erased: stored before the vault existed (docs/adr/0015), served as stored
      if (!isSealed(event) && this.cache.get(personalDataSubject(event.data)) !== 'erased') continue;
      opened ??= events.slice();
      opened[index] = { ...event, data: this.openOne(event) };
    }
    return opened ?? events;
  }

  /** a sealed event whose key is gone (destroyed, or its row lost) reads as erased, as does an erased account's event stored in clear */
  private openOne(event: StoredEvent): Payload {
    const { [SEALED_FIELD]: sealed, ...rest } = event.data as Payload;
    const subject = personalDataSubject(rest);
    const key = this.cache.get(subject);
    if (key instanceof Buffer && typeof sealed === 'string') return { ...rest, ...(unseal(key, subject, event.type, sealed) as Payload) };
    return erasePersonalData(event.type, rest);
  }

  private async destroyErased(events: NewEvent[]): Promise<void> {
    const erased = events.filter((event) => event.type === PERSONAL_DATA_ERASED_EVENT);
    for (const event of erased) await this.destroyKey(personalDataSubject(event.data), (event.data as { erasedAt: string }).erasedAt);
    if (erased.length > 0) await this.keys.compact();
  }

  private async destroyKey(subject: string, at: string): Promise<void> {
    if (this.cache.get(subject) === 'erased') return;
    await this.keys.destroy(subject, at);
    this.remember(subject, 'erased');
  }

  private remember(subject: string, key: KnownKey): void {
    if (this.cache.size >= CACHE_LIMIT && !this.cache.has(subject)) this.cache.clear();
    this.cache.set(subject, key);
  }
}
