import Typography from '@mui/material/Typography';
import { formatInstant, zonedInstant, zonedTime } from '../lib/zone-label';

/**
 * A time of day in the zone its day is drawn in (the account's, else its organization's: the
 * server names it on each row), labelled with the zone's offset ('UTC+9', lib/zone-label.ts); date
 * and full zone name in the title. `showZone` false where a column header already names the one
 * zone of every row.
 */
export function ZonedTime({ at, timeZone, showZone = true }: { at: string; timeZone: string; showZone?: boolean }) {
  const { time, date, zone } = zonedTime(at, timeZone);
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} title={`${date} ${time} (${timeZone})`}>
      {time}
      {showZone && (
        <>
          {' '}
          <Typography component="span" variant="caption" color="text.secondary">
            {zone}
          </Typography>
        </>
      )}
    </Typography>
  );
}

/**
 * An instant not tied to an account (a login, a scan of an unknown card, an event's record time)
 * as 'DD.MM.YYYY @ HH:mm' in the browser's zone (or `timeZone`), labelled like every time in the
 * console ('UTC+1'); the IANA name in the title. `showZone` false where a column header names the
 * zone once. An empty or unreadable value renders `fallback`.
 */
export function ZonedDateTime({ at, timeZone, showZone = true, seconds = false, fallback = null }: { at: string | null | undefined; timeZone?: string; showZone?: boolean; seconds?: boolean; fallback?: React.ReactNode }) {
  const zoned = zonedInstant(at, timeZone);
  const text = formatInstant(at, { timeZone, seconds, zone: false });
  if (!text) return <>{fallback}</>;
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} title={zoned ? `${zoned.date} ${zoned.time} (${zoned.timeZone})` : undefined}>
      {text}
      {showZone && zoned && (
        <>
          {' '}
          <Typography component="span" variant="caption" color="text.secondary">
            {zoned.zone}
          </Typography>
        </>
      )}
    </Typography>
  );
}
