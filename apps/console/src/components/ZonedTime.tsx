import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { zonedTime } from '../lib/zone-label';

/**
 * A time of day in the zone its day is drawn in (the account's, else its organization's: the
 * server names it on each row), labelled with the zone's short name; date and full zone name in
 * the title. `showZone` false where a column header already names the one zone of every row.
 */
export function ZonedTime({ at, timeZone, showZone = true }: { at: string; timeZone: string; showZone?: boolean }) {
  const { i18n } = useTranslation();
  const { time, date, zone } = zonedTime(at, timeZone, i18n.language);
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} title={`${date} ${time} (${timeZone})`}>
      {time}
      {showZone && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5 }}>
          {zone}
        </Typography>
      )}
    </Typography>
  );
}
