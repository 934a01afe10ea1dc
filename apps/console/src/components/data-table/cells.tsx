import Typography from '@mui/material/Typography';
import { formatDateTime } from '../../lib/format-date';

/** A UUID's last 8 characters in monospace (v7 ids share their first ones: the time); the whole id on hover. */
export function ShortId({ id }: { id: string }) {
  return (
    <Typography component="span" variant="body2" title={id} sx={{ fontFamily: 'monospace' }}>
      {id.slice(-8)}
    </Typography>
  );
}

/** DD.MM.YYYY @ HH:mm on one line */
export function DateTimeCell({ value }: { value: string | null | undefined }) {
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(value)}
    </Typography>
  );
}
