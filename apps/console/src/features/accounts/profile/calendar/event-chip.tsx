import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import type { TCalendarEvent } from '@rollcall/contracts';

/**
 * A steady colour per attendance status, so the same status looks the same everywhere; each at least
 * 5:1 against the chip's white text (WCAG AA), whichever status draws it.
 */
const PALETTE = ['#1565c0', '#2e7d32', '#6a1b9a', '#c62828', '#bf360c', '#006064', '#4e342e', '#ad1457'];
export function statusColour(statusId: string): string {
  let hash = 0;
  for (const character of statusId) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

/** One event in a grid: its title (and status), a button that opens its edit dialog. */
export function EventChip({ event, label, onOpen, sx }: { event: TCalendarEvent; label: string; onOpen: (event: TCalendarEvent) => void; sx?: SxProps<Theme> }) {
  const description = event.status_title ? `${event.title} – ${event.status_title}` : event.title;
  return (
    <ButtonBase
      onClick={(click) => {
        click.stopPropagation();
        onOpen(event);
      }}
      title={description}
      aria-label={description}
      sx={[
        { display: 'flex', alignItems: 'flex-start', justifyContent: 'flex-start', width: '100%', textAlign: 'left', borderRadius: 1, px: 0.75, py: 0.25, color: '#fff', bgcolor: statusColour(event.attendance_status_id), overflow: 'hidden' },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Typography component="span" variant="caption" noWrap sx={{ display: 'block', minWidth: 0, fontWeight: 500 }}>
        {label}
      </Typography>
    </ButtonBase>
  );
}
