import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../event-store/event-store.port';

/** Who asks, from where, under which correlation id: every command carries it into its events. */
export interface RequestContext {
  actor: string;
  actorKind: EventMetadata['actorKind'];
  sourceIp: string | null;
  correlationId: string;
  /** IANA zone named by the request (X-Time-Zone), for day boundaries */
  timeZone: string | null;
}

export const systemContext = (): RequestContext => ({ actor: 'system', actorKind: 'system', sourceIp: null, correlationId: randomUUID(), timeZone: null });

export function eventMetadata(context: RequestContext, occurredAt: string, causationId: string | null = null): EventMetadata {
  return {
    eventId: randomUUID(),
    actor: context.actor,
    actorKind: context.actorKind,
    sourceIp: context.sourceIp,
    correlationId: context.correlationId,
    causationId,
    occurredAt,
  };
}
