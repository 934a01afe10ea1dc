import { EntityId } from '../EntityId';
import { ZonedDateTime } from '../ZonedTime';

/** A UUID's last 8 characters in monospace (v7 ids share their first ones: the time); the whole id on hover and a copy button. */
export function ShortId({ id }: { id: string }) {
  return <EntityId id={id} />;
}

/** DD.MM.YYYY @ HH:mm on one line, in the browser's zone and labelled ('UTC+1', lib/zone-label.ts) */
export function DateTimeCell({ value }: { value: string | null | undefined }) {
  return <ZonedDateTime at={value} />;
}
