import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TCalendarEvent } from '@rollcall/contracts';
import { endTimeOf, eventsByDate, isAllDay, layoutDay, shownDate, startTimeOf } from './calendar-grid';
import { EventChip } from './event-chip';

const HOUR_HEIGHT = 48;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

interface WeekViewProps {
  /** the days shown: a week (Monday to Sunday) or one day */
  days: string[];
  events: readonly TCalendarEvent[];
  locale: string;
  /** the 'All day' row clicked: a new all-day event */
  onDay: (date: string) => void;
  /** an hour slot clicked: a new event from that hour to the next */
  onSlot: (date: string, hour: number) => void;
  onEvent: (event: TCalendarEvent) => void;
}

/** A week (or a day): an 'All day' row, then one column per day with its hour slots and timed events. */
export function WeekView({ days, events, locale, onDay, onSlot, onEvent }: WeekViewProps) {
  const { t } = useTranslation();
  const byDate = eventsByDate(events);
  const heading = new Intl.DateTimeFormat(locale, { weekday: 'short', day: '2-digit', month: '2-digit', timeZone: 'UTC' });
  const columns = `3.5rem repeat(${days.length}, minmax(0, 1fr))`;
  const scroller = useRef<HTMLDivElement>(null);
  // open on the working day rather than at midnight
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 7 * HOUR_HEIGHT;
  }, []);
  return (
    <Box role="grid" aria-label={days.length === 1 ? t('calendar.day') : t('calendar.week')} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
      <Box role="row" sx={{ display: 'grid', gridTemplateColumns: columns, bgcolor: 'action.hover' }}>
        <Box role="columnheader" aria-label={t('calendar.time')} />
        {days.map((date) => (
          <Typography key={date} role="columnheader" variant="caption" sx={{ py: 0.75, textAlign: 'center', fontWeight: 600 }}>
            {heading.format(new Date(`${date}T00:00:00Z`))}
          </Typography>
        ))}
      </Box>
      <Box role="row" sx={{ display: 'grid', gridTemplateColumns: columns, borderTop: 1, borderColor: 'divider' }}>
        <Typography role="rowheader" variant="caption" color="text.secondary" sx={{ p: 0.5, textAlign: 'right' }}>
          {t('calendar.allDay')}
        </Typography>
        {days.map((date) => (
          <Box key={date} role="gridcell" sx={{ position: 'relative', minHeight: 32, borderLeft: 1, borderColor: 'divider' }}>
            <ButtonBase aria-label={`${t('calendar.allDay')}: ${t('calendar.newEventAt', { date: shownDate(date) })}`} onClick={() => onDay(date)} sx={{ position: 'absolute', inset: 0, '&:hover': { bgcolor: 'action.selected' } }} />
            <Box sx={{ position: 'relative', p: 0.25, display: 'grid', gap: 0.25, pointerEvents: 'none', '& > *': { pointerEvents: 'auto' } }}>
              {(byDate.get(date) ?? []).filter(isAllDay).map((event) => (
                <EventChip key={event.id} event={event} onOpen={onEvent} label={event.title} />
              ))}
            </Box>
          </Box>
        ))}
      </Box>
      <Box ref={scroller} sx={{ maxHeight: 12 * HOUR_HEIGHT, overflowY: 'auto', borderTop: 1, borderColor: 'divider' }}>
        <Box role="row" sx={{ display: 'grid', gridTemplateColumns: columns }}>
          <Box role="rowheader">
            {HOURS.map((hour) => (
              <Typography key={hour} variant="caption" color="text.secondary" sx={{ display: 'block', height: HOUR_HEIGHT, pr: 0.5, textAlign: 'right', lineHeight: 1 }}>
                {`${String(hour).padStart(2, '0')}:00`}
              </Typography>
            ))}
          </Box>
          {days.map((date) => (
            <Box key={date} role="gridcell" sx={{ position: 'relative', borderLeft: 1, borderColor: 'divider' }}>
              {HOURS.map((hour) => (
                <ButtonBase
                  key={hour}
                  aria-label={t('calendar.newEventAtTime', { date: shownDate(date), time: `${String(hour).padStart(2, '0')}:00` })}
                  onClick={() => onSlot(date, hour)}
                  sx={{ display: 'block', width: '100%', height: HOUR_HEIGHT, borderTop: hour ? 1 : 0, borderColor: 'divider', '&:hover': { bgcolor: 'action.selected' } }}
                />
              ))}
              {layoutDay((byDate.get(date) ?? []).filter((event) => !isAllDay(event))).map(({ event, top, height, left, width }) => (
                <EventChip
                  key={event.id}
                  event={event}
                  onOpen={onEvent}
                  label={`${startTimeOf(event).slice(0, 5)}–${endTimeOf(event).slice(0, 5)} ${event.title}`}
                  sx={{ position: 'absolute', top: `${top * 100}%`, height: `${height * 100}%`, left: `calc(${left * 100}% + 2px)`, width: `calc(${width * 100}% - 4px)`, border: 1, borderColor: 'background.paper' }}
                />
              ))}
            </Box>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
