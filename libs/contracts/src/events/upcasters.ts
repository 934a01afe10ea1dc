/**
 * A stored event type is never renamed; when its payload changes shape, an upcaster turns the old
 * shape into the new one at read time. Keyed by event type, applied in order of `fromSchemaVersion`.
 */
export interface Upcaster {
  eventType: string;
  fromSchemaVersion: number;
  upcast: (data: unknown) => unknown;
}

export const UPCASTERS: Upcaster[] = [];

export function upcast(eventType: string, schemaVersion: number, data: unknown): { data: unknown; schemaVersion: number } {
  let current = { data, schemaVersion };
  for (const upcaster of UPCASTERS) {
    if (upcaster.eventType === eventType && upcaster.fromSchemaVersion === current.schemaVersion) {
      current = { data: upcaster.upcast(current.data), schemaVersion: current.schemaVersion + 1 };
    }
  }
  return current;
}
