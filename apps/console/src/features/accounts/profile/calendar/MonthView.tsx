import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TCalendarEvent } from '@rollcall/contracts';
import { eventsByDate, isAllDay, isoWeek, localToday, monthGrid, monthOf, shownDate, startTimeOf } from './calendar-grid';
import { EventChip } from './event-chip';

const SHOWN_PER_DAY = 3;

interface MonthViewProps {
  anchor: string;
  events: readonly TCalendarEvent[];
  locale: string;
  /** a day clicked: a new all-day event */
  onDay: (date: string) => void;
  onEvent: (event: TCalendarEvent) => void;
  /** '+n more': show that day */
  onMore: (date: string) => void;
}

/** The month: Monday-first weeks with their ISO week numbers; each day lists its events. */
export function MonthView({ anchor, events, locale, onDay, onEvent, onMore }: MonthViewProps) {
  const { t } = useTranslation();
  const weeks = monthGrid(anchor);
  const byDate = eventsByDate(events);
  const month = monthOf(anchor);
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const columns = '2.5rem repeat(7, minmax(0, 1fr))';
  const today = localToday();
  return (
    <Box role="grid" aria-label={t('calendar.month')} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
      <Box role="row" sx={{ display: 'grid', gridTemplateColumns: columns, bgcolor: 'action.hover' }}>
        <Typography role="columnheader" variant="caption" color="text.secondary" sx={{ py: 0.75, textAlign: 'center' }}>
          {t('calendar.weekShort')}
        </Typography>
        {weeks[0].map((date) => (
          <Typography key={date} role="columnheader" variant="caption" sx={{ py: 0.75, textAlign: 'center', fontWeight: 600, textTransform: 'capitalize' }}>
            {weekday.format(new Date(`${date}T00:00:00Z`))}
          </Typography>
        ))}
      </Box>
      {weeks.map((week) => (
        <Box key={week[0]} role="row" sx={{ display: 'grid', gridTemplateColumns: columns, borderTop: 1, borderColor: 'divider' }}>
          <Typography role="rowheader" variant="caption" color="text.secondary" title={t('calendar.weekNumber', { week: isoWeek(week[0]) })} sx={{ pt: 0.75, textAlign: 'center' }}>
            {isoWeek(week[0])}
          </Typography>
          {week.map((date) => {
            const dayEvents = byDate.get(date) ?? [];
            const label = shownDate(date);
            return (
              <Box
                key={date}
                role="gridcell"
                sx={{ minHeight: { xs: 72, md: 104 }, borderLeft: 1, borderColor: 'divider', position: 'relative', bgcolor: monthOf(date) === month ? undefined : 'grey.50' }}
              >
                {/* the whole cell is the 'new event on this day' button; the events sit above it */}
                <ButtonBase aria-label={t('calendar.newEventAt', { date: label })} onClick={() => onDay(date)} sx={{ position: 'absolute', inset: 0, '&:hover': { bgcolor: 'action.selected' } }} />
                <Box sx={{ position: 'relative', p: 0.5, display: 'grid', gap: 0.25, pointerEvents: 'none', '& > *': { pointerEvents: 'auto' } }}>
                  <Typography
                    variant="caption"
                    color={date === today ? 'primary.contrastText' : monthOf(date) === month ? 'text.primary' : 'text.secondary'}
                    aria-current={date === today ? 'date' : undefined}
                    sx={{ justifySelf: 'end', px: 0.75, borderRadius: 4, pointerEvents: 'none', bgcolor: date === today ? 'primary.main' : undefined }}
                  >
                    {Number(date.slice(8, 10))}
                  </Typography>
                  {dayEvents.slice(0, SHOWN_PER_DAY).map((event) => (
                    <EventChip key={event.id} event={event} onOpen={onEvent} label={isAllDay(event) ? event.title : `${startTimeOf(event).slice(0, 5)} ${event.title}`} />
                  ))}
                  {dayEvents.length > SHOWN_PER_DAY && (
                    <ButtonBase onClick={() => onMore(date)} sx={{ justifySelf: 'start', px: 0.5, borderRadius: 1 }}>
                      <Typography variant="caption" color="primary">
                        {t('calendar.more', { count: dayEvents.length - SHOWN_PER_DAY })}
                      </Typography>
                    </ButtonBase>
                  )}
                </Box>
              </Box>
            );
          })}
        </Box>
      ))}
    </Box>
  );
}
