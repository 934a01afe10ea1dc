import { alpha, type SxProps, type Theme } from '@mui/material/styles';

/**
 * FullCalendar 6 brings its own stylesheet; this fits it to the console's MUI theme (its palette,
 * type and shape, so a dark palette would carry over) through FullCalendar's CSS variables, and
 * keeps every text at WCAG AA contrast (FullCalendar's grey week numbers and its faded days of the
 * months around are below it).
 */
export const calendarSx: SxProps<Theme> = (theme) => ({
  '--fc-border-color': theme.palette.divider,
  '--fc-page-bg-color': theme.palette.background.paper,
  '--fc-neutral-bg-color': theme.palette.action.hover,
  '--fc-neutral-text-color': theme.palette.text.secondary,
  '--fc-today-bg-color': alpha(theme.palette.primary.main, 0.08),
  '--fc-highlight-color': alpha(theme.palette.primary.main, 0.18),
  '--fc-now-indicator-color': theme.palette.error.main,
  '--fc-event-selected-overlay-color': alpha(theme.palette.common.black, 0.2),
  '--fc-more-link-bg-color': 'transparent',
  '--fc-more-link-text-color': theme.palette.primary.main,
  '--fc-small-font-size': theme.typography.caption.fontSize,
  bgcolor: 'background.paper',
  color: 'text.primary',
  borderRadius: 1,
  fontFamily: theme.typography.fontFamily,
  fontSize: theme.typography.body2.fontSize,
  '& .fc .fc-scrollgrid': { borderRadius: 1, overflow: 'hidden' },
  '& .fc a': { color: 'inherit' },
  '& .fc .fc-col-header-cell': { bgcolor: 'action.hover', py: 0.5, fontWeight: 600, textTransform: 'capitalize' },
  // the weeks' numbers and the days of the months around: readable, not faded
  '& .fc .fc-daygrid-week-number': { bgcolor: 'transparent', color: 'text.secondary', fontSize: theme.typography.caption.fontSize, pl: 0.5 },
  '& .fc .fc-day-other .fc-daygrid-day-top': { opacity: 1 },
  '& .fc .fc-day-other': { bgcolor: theme.palette.mode === 'dark' ? alpha(theme.palette.common.white, 0.03) : theme.palette.grey[50] },
  '& .fc .fc-day-other .rc-day-button, & .fc .fc-day-other .rc-day-number': { color: 'text.secondary' },
  '& .fc .fc-dayGridMonth-view .fc-daygrid-day-frame': { minHeight: { xs: 64, md: 104 } },
  '& .fc .fc-daygrid-day-top': { p: 0.25 },
  '& .fc .fc-daygrid-day-number': { p: 0 },
  // a day's number is its 'new event' button; today's is filled
  '& .rc-day-button, & .rc-day-number': {
    minWidth: 28,
    height: 28,
    px: 0.75,
    border: 0,
    borderRadius: 14,
    bgcolor: 'transparent',
    color: 'text.primary',
    font: 'inherit',
    fontSize: theme.typography.caption.fontSize,
    lineHeight: '28px',
    display: 'inline-block',
  },
  '& .rc-day-button': { cursor: 'pointer', '&:hover': { bgcolor: 'action.selected' } },
  '& .rc-day-button:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 1 },
  '& .fc .fc-day-today .rc-day-button, & .fc .fc-day-today .rc-day-number': { bgcolor: 'primary.main', color: 'primary.contrastText', '&:hover': { bgcolor: 'primary.dark' } },
  '& .fc .fc-day-today.fc-day-other .rc-day-button': { color: 'primary.contrastText' },
  // the week's and the day's headings are their days' buttons
  '& .fc .fc-col-header-cell .rc-day-button': { fontSize: theme.typography.body2.fontSize, fontWeight: 600, px: 1.25, my: 0.25 },
  // the phone's lists: an event is a button as wide as its row
  '--fc-list-event-hover-bg-color': theme.palette.action.hover,
  '& .rc-list-event': { all: 'unset', boxSizing: 'border-box', display: 'block', width: '100%', cursor: 'pointer', color: 'text.primary', '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 } },
  '& .fc .fc-list-day-cushion': { bgcolor: 'action.hover', fontWeight: 600 },
  '& .fc .fc-timegrid-axis-cushion, & .fc .fc-timegrid-slot-label-cushion': { color: 'text.secondary', fontSize: theme.typography.caption.fontSize },
  '& .fc .fc-timegrid-slot': { height: '3em' },
  // events: the status's colour, white text, the time first
  '& .fc .fc-event': { borderRadius: 0.5, cursor: 'pointer', fontSize: theme.typography.caption.fontSize, fontWeight: 500 },
  '& .fc .fc-event:focus-visible': { outline: `2px solid ${theme.palette.text.primary}`, outlineOffset: 1 },
  '& .rc-event': { display: 'flex', gap: 0.5, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', px: 0.5, minWidth: 0 },
  '& .fc-timegrid-event .rc-event': { flexDirection: 'column', gap: 0, whiteSpace: 'normal', lineHeight: 1.35, pt: 0.25 },
  '& .rc-event-time': { flexShrink: 0, opacity: 0.95 },
  '& .rc-event-title': { overflow: 'hidden', textOverflow: 'ellipsis' },
  '& .fc .fc-more-link': { fontWeight: 500, color: 'primary.main', '&:hover': { textDecoration: 'underline' } },
  '& .rc-visually-hidden': { position: 'absolute', width: '1px', height: '1px', m: '-1px', p: 0, border: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
});
