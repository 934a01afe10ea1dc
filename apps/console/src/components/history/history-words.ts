import type { TFunction } from 'i18next';
import type { TFieldChange, THistoryEntry } from '@rollcall/contracts';
import { formatDate } from '../../lib/format-date';
import { formatInstant, zonedTime } from '../../lib/zone-label';

/**
 * A history entry in the console's language: what happened, who did it and from where, worded from
 * the event's type and data with the names the page gives (an id the caller may not see, or one
 * deleted since, stays an id). Times of a person's attendance are in the zone the page names,
 * labelled; dates DD.MM.YYYY; statuses and reasons by name. A type the console has no words for
 * keeps the server's English sentence in English and says which event it was otherwise.
 */
export interface HistoryContext {
  names: Record<string, string>;
  timeZone: string;
  language: string;
}

type Data = Record<string, unknown>;

/** what the words need of an entry (the tRPC answer's `data` may be absent) */
export type HistoryEntryLike = Pick<THistoryEntry, 'type' | 'summary' | 'actor' | 'actor_kind' | 'source_ip' | 'changes'> & { data?: unknown };

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** an instant as attendance shows it: DD.MM.YYYY HH:mm:ss in the person's zone, the zone named */
export function zonedText(instant: string, context: HistoryContext): string {
  const { date, time, zone } = zonedTime(instant, context.timeZone);
  return `${date} ${time} (${zone})`;
}

/** one value of an event's data as display text */
export function valueText(value: unknown, context: HistoryContext, t: TFunction): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') {
    if (ID.test(value)) return context.names[value] ?? value;
    if (DAY.test(value)) return formatDate(value);
    if (INSTANT.test(value)) return zonedText(value, context);
    return value;
  }
  if (typeof value === 'boolean') return t(value ? 'historyWords.yes' : 'historyWords.no');
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((item) => valueText(item, context, t)).join(', ');
  return JSON.stringify(value);
}

/** the event's data flattened for a sentence: `scan.door` reads as `scan_door` */
function paramsOf(data: unknown, context: HistoryContext, t: TFunction, prefix = '', into: Record<string, string> = {}): Record<string, string> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return into;
  for (const [key, value] of Object.entries(data as Data)) {
    const name = prefix ? `${prefix}_${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) paramsOf(value, context, t, name, into);
    else into[name] = valueText(value, context, t);
  }
  return into;
}

/** the words an event's own values need beyond their text */
function extraParams(entry: HistoryEntryLike, t: TFunction): Record<string, string> {
  const data = (entry.data && typeof entry.data === 'object' ? entry.data : {}) as Data;
  const extra: Record<string, string> = {};
  if (typeof data.statusId === 'number') extra.status = t(`accountStatus.${data.statusId}`, { defaultValue: String(data.statusId) });
  if (typeof data.reason === 'string' && entry.type === 'UncountedScanRecorded') extra.reason = t(`historyWords.uncounted.${data.reason}`, { defaultValue: data.reason });
  if (typeof data.via === 'string') extra.via = t(`historyWords.via.${data.via}`, { defaultValue: data.via });
  if (typeof data.role === 'string') extra.role = t(`historyWords.readerRole.${data.role}`, { defaultValue: data.role });
  if ('departedAt' in data && !data.departedAt) extra.departedAt = t('historyWords.stillIn');
  const previous = (data.previous && typeof data.previous === 'object' ? data.previous : null) as Data | null;
  if (previous && 'departedAt' in previous && !previous.departedAt) extra.previous_departedAt = t('historyWords.stillIn');
  // a rename says from what: the field's value before the event
  const title = entry.changes.find((change: TFieldChange) => change.field === 'title');
  extra.previousTitle = title?.before ?? '—';
  return extra;
}

/** who did it, as people call them */
export function actorText(entry: Pick<THistoryEntry, 'actor' | 'actor_kind'>, context: HistoryContext, t: TFunction): string {
  if (entry.actor_kind === 'system') return t('historyWords.system');
  if (entry.actor_kind === 'outside_scope') return t('historyWords.outsideScope');
  return context.names[entry.actor] ?? entry.actor;
}

/** the entry as one sentence: what, by whom, from where */
export function historySentence(entry: HistoryEntryLike, context: HistoryContext, t: TFunction): string {
  const key = `historyWords.events.${entry.type}`;
  const known = t(key, { defaultValue: '' }) !== '';
  if (!known && context.language === 'en') return entry.summary;
  const params = { ...paramsOf(entry.data, context, t), ...extraParams(entry, t), interpolation: { escapeValue: false } };
  const what = known ? t(key, params) : t('historyWords.unknown', { type: entry.type });
  const actor = actorText(entry, context, t);
  return entry.source_ip ? t('historyWords.byFrom', { what, actor, ip: entry.source_ip, interpolation: { escapeValue: false } }) : t('historyWords.by', { what, actor, interpolation: { escapeValue: false } });
}

/** a field's label in the console's language: 'roles by organization › Sales' -> 'Rollen je Organisation › Sales' */
export function fieldLabel(field: string, t: TFunction): string {
  return field
    .split(' › ')
    .map((part) => t(`historyWords.fields.${part.replace(/ /g, '_')}`, { defaultValue: part }))
    .join(' › ');
}

/** a field's value as the console shows values: dates DD.MM.YYYY, instants with the time, statuses by name */
export function fieldValue(field: string, value: string | null, t: TFunction): string {
  if (value === null) return '—';
  if (DAY.test(value)) return formatDate(value);
  if (INSTANT.test(value)) return formatInstant(value);
  if (value === 'true' || value === 'false') return t(value === 'true' ? 'historyWords.yes' : 'historyWords.no');
  if (field === 'status') return t(`historyWords.statusNames.${value.replace(/ /g, '_')}`, { defaultValue: value });
  return value;
}
