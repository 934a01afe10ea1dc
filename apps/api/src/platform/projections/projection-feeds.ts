import type { StoredEvent } from '../event-store/event-store.port';
import type { Projection } from './projection';

/**
 * Splits a batch into what each projection reacts to (its `eventTypes`), in order, in one pass over the
 * batch: which projections want a type is worked out the first time the type is met, so an event
 * costs one lookup however many projections there are (a rebuild runs about twenty over every event).
 */
export class ProjectionFeeds {
  /** for each event type met so far, the indexes of the projections that want it ('all' ones aside) */
  private readonly wantedBy = new Map<string, number[]>();

  constructor(private readonly projections: readonly Projection[]) {}

  /** each projection with its events of the batch; one that wants every event gets the batch itself */
  split(events: StoredEvent[]): Array<[Projection, StoredEvent[]]> {
    const feeds = this.projections.map((): StoredEvent[] => []);
    for (const event of events) {
      for (const index of this.projectionsWanting(event.type)) feeds[index].push(event);
    }
    return this.projections.map((projection, index) => [projection, projection.eventTypes === 'all' ? events : feeds[index]]);
  }

  private projectionsWanting(type: string): number[] {
    let wanting = this.wantedBy.get(type);
    if (!wanting) {
      wanting = [];
      for (const [index, { eventTypes }] of this.projections.entries()) if (eventTypes !== 'all' && eventTypes.includes(type)) wanting.push(index);
      this.wantedBy.set(type, wanting);
    }
    return wanting;
  }
}
