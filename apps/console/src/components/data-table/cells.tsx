import Typography from '@mui/material/Typography';
import { formatDateTime } from '../../lib/format-date';
import { EntityId } from '../EntityId';

/** A UUID's last 8 characters in monospace (v7 ids share their first ones: the time); the whole id on hover and a copy button. */
export function ShortId({ id }: { id: string }) {
  return <EntityId id={id} />;
}

/** DD.MM.YYYY @ HH:mm on one line */
export function DateTimeCell({ value }: { value: string | null | undefined }) {
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(value)}
    </Typography>
  );
}
