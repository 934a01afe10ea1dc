import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import FullCalendar from '@fullcalendar/react';
import type { DatesSetArg, DateSelectArg, DayCellContentArg, DayHeaderContentArg, EventClickArg, EventContentArg, EventMountArg } from '@fullcalendar/core';
import deLocale from '@fullcalendar/core/locales/de';
import enGbLocale from '@fullcalendar/core/locales/en-gb';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import timeGridPlugin from '@fullcalendar/timegrid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../../components/ErrorState';
import { useGrants } from '../../../../auth/use-grants';
import { trpc } from '../../../../trpc';
import { addDays, eventDescription, localNow, rangeOfSelection, shownDate, sourceOf, toFullCalendarEvent } from './calendar-events';
import { calendarSx } from './calendar-style';
import { EventDialog, type EventDialogTarget } from './EventDialog';
import { slotRange, type NewEventRange } from './event-form';

export type CalendarView = 'month' | 'week' | 'day';
/** FullCalendar's views for ours; a phone lists the week's and the day's events (seven time columns do not fit it) */
const FULLCALENDAR_VIEWS: Record<CalendarView, string> = { month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay' };
const PHONE_VIEWS: Record<CalendarView, string> = { month: 'dayGridMonth', week: 'listWeek', day: 'listDay' };
// FullCalendar's options that do not change: kept out of the render, so it is not re-configured on each
const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin];
const LOCALES = [enGbLocale, deLocale];
const HOURS_MINUTES = { hour: '2-digit', minute: '2-digit', hour12: false } as const;
/** FullCalendar makes a clickable event focusable and answers Enter on it: it is a button */
const markAsButton = (mounted: EventMountArg) => {
  if (mounted.el.tagName === 'A') mounted.el.setAttribute('role', 'button');
};
const viewOf = (type: string): CalendarView => (type.endsWith('Week') ? 'week' : type.endsWith('Day') ? 'day' : 'month');

/** the days FullCalendar shows and its title for them */
interface Shown {
  from: string;
  to: string;
  title: string;
  /** the first day of the period itself (a month view also shows days of the months around it) */
  current: string;
}

/** arrow keys move between days (a week up and down), Home and End to the week's ends, Page Up and Down a month */
const KEY_STEPS: Record<string, (date: string) => string> = {
  ArrowLeft: (date) => addDays(date, -1),
  ArrowRight: (date) => addDays(date, 1),
  ArrowUp: (date) => addDays(date, -7),
  ArrowDown: (date) => addDays(date, 7),
  Home: (date) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7)),
  End: (date) => addDays(date, 6 - ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7)),
  PageUp: (date) => addDays(date, -28),
  PageDown: (date) => addDays(date, 28),
};

/**
 * The account's calendar (spec tab 8) on FullCalendar: month, week and day views; Today and back and
 * next, which name the step they take ('Previous month', 'Previous week', 'Previous day'). A click on
 * a day or an hour slot, or a drag over days or slots, opens a new event group on that range; a click
 * on an event (or Enter on it) opens its edit dialog. Each day's number in the month, and each day's
 * heading in the week and the day, is a button (a new event on that day), one of them in the tab
 * order; the arrow keys move between them. A phone lists the week's and the day's events. Loaded
 * only with the tab (AccountCalendarTab), so FullCalendar is not part of the first screen.
 */
export default function CalendarPanel({ accountId }: { accountId: string }) {
  const { t, i18n } = useTranslation();
  const calendar = useRef<FullCalendar>(null);
  const root = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<CalendarView>('month');
  const [shown, setShown] = useState<Shown | null>(null);
  const [target, setTarget] = useState<EventDialogTarget | null>(null);
  // the day in the tab order; a day to focus once FullCalendar has drawn it
  const [focusDay, setFocusDay] = useState<string | null>(null);
  const pendingFocus = useRef<string | null>(null);
  const mayWrite = useGrants().may('attendance:write');
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const views = phone ? PHONE_VIEWS : FULLCALENDAR_VIEWS;
  // a phone turned to a wider screen (or back) keeps the view, drawn as that screen draws it
  useEffect(() => {
    const current = calendar.current?.getApi();
    if (current && current.view.type !== views[viewOf(current.view.type)]) current.changeView(views[viewOf(current.view.type)]);
  }, [views]);

  const events = trpc.calendar.events.useQuery({ account_id: accountId, from: shown?.from ?? '', to: shown?.to ?? '' }, { enabled: shown !== null, placeholderData: (previous) => previous });
  const fullCalendarEvents = useMemo(() => (events.data ?? []).map(toFullCalendarEvent), [events.data]);

  const api = () => calendar.current?.getApi();
  const create = useCallback((range: NewEventRange) => mayWrite && setTarget({ kind: 'create', range }), [mayWrite]);

  const onDatesSet = useCallback((arg: DatesSetArg) => {
    const current = arg.view.currentStart.toISOString().slice(0, 10);
    const next: Shown = { from: arg.startStr.slice(0, 10), to: addDays(arg.endStr.slice(0, 10), -1), title: arg.view.title, current };
    // FullCalendar says so again when re-configured (a language switched): the same days are no change
    setShown((previous) => (previous && previous.from === next.from && previous.to === next.to && previous.title === next.title && previous.current === next.current ? previous : next));
    setView(viewOf(arg.view.type));
  }, []);
  const onSelect = useCallback(
    (selection: DateSelectArg) => {
      selection.view.calendar.unselect();
      // a click on a day's button opened its dialog already
      if (selection.jsEvent?.target instanceof Element && selection.jsEvent.target.closest('[data-day-button]')) return;
      create(rangeOfSelection(selection));
    },
    [create],
  );
  const onEventClick = useCallback((click: EventClickArg) => {
    click.jsEvent.preventDefault();
    setTarget({ kind: 'edit', event: sourceOf(click.event.extendedProps) });
  }, []);

  // the day in the tab order: the one last moved to, else today, else the period's first day
  const today = localNow().slice(0, 10);
  const inView = (date: string | null): date is string => Boolean(date && shown && date >= shown.from && date <= shown.to);
  const tabDay = inView(focusDay) ? focusDay : inView(today) ? today : (shown?.current ?? today);

  // focus the day moved to once it is drawn (FullCalendar draws a new period a moment later)
  useEffect(() => {
    const date = pendingFocus.current;
    if (!date) return;
    let frames = 0;
    let handle = 0;
    const attempt = () => {
      const button = root.current?.querySelector<HTMLElement>(`[data-day-button][data-date="${date}"]`);
      if (button) {
        pendingFocus.current = null;
        button.focus();
      } else if ((frames += 1) < 30) handle = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(handle);
  }, [focusDay, shown]);

  // the hours of a week or a day scroll inside a grid 640 px high: a keyboard reaches that scroll area
  // also when no event inside it could take focus (axe: scrollable-region-focusable). The scroll area
  // itself sits between FullCalendar's grid and its rows, where a focusable element breaks the grid
  // (axe: aria-required-children), so the first day's cell of the hours takes the tab stop and the name
  const hoursLabel = t('calendar.hoursRegion');
  useEffect(() => {
    let handle = 0;
    const mark = () => {
      for (const old of root.current?.querySelectorAll<HTMLElement>('[data-hours-stop]') ?? []) {
        old.removeAttribute('data-hours-stop');
        old.removeAttribute('tabindex');
        old.removeAttribute('aria-label');
      }
      const cell = root.current?.querySelector<HTMLElement>('.fc-timegrid-body td.fc-timegrid-col[role="gridcell"]');
      if (!cell) return;
      cell.setAttribute('data-hours-stop', '');
      cell.tabIndex = 0;
      cell.setAttribute('aria-label', hoursLabel);
    };
    // FullCalendar draws a new period a moment after it says so
    mark();
    handle = requestAnimationFrame(mark);
    return () => cancelAnimationFrame(handle);
  }, [shown, view, phone, hoursLabel, fullCalendarEvents]);

  const onKeyDown = (event: KeyboardEvent) => {
    const from = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('[data-day-button]')?.dataset.date : undefined;
    const step = KEY_STEPS[event.key];
    if (!from || !step || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = step(from);
    pendingFocus.current = next;
    setFocusDay(next);
    if (!inView(next)) api()?.gotoDate(next);
  };

  const dayButton = (date: string, text: string, isToday: boolean) => (
    <button
      type="button"
      className="rc-day-button"
      data-day-button=""
      data-date={date}
      tabIndex={date === tabDay ? 0 : -1}
      aria-label={t('calendar.newEventAt', { date: shownDate(date) })}
      aria-current={isToday ? 'date' : undefined}
      onClick={() => {
        setFocusDay(date);
        create(slotRange(date));
      }}
    >
      {text}
    </button>
  );
  // the month: each day's number is its button (FullCalendar also draws this content in the time
  // grid's day columns, which have none)
  const renderDayCell = (cell: DayCellContentArg) => {
    if (cell.view.type !== 'dayGridMonth') return null;
    if (!mayWrite) return <span className="rc-day-number">{cell.dayNumberText}</span>;
    return dayButton(cell.date.toISOString().slice(0, 10), cell.dayNumberText, cell.isToday);
  };
  // the week and the day: each day's heading is its button (a new all-day event)
  const renderDayHeader = (header: DayHeaderContentArg) => {
    // elsewhere (the month's weekdays, the phone's lists) FullCalendar's own
    if (!header.view.type.startsWith('timeGrid') || !mayWrite) return true;
    return dayButton(header.date.toISOString().slice(0, 10), header.text, header.isToday);
  };
  const renderEvent = (content: EventContentArg) => {
    // the selection's mirror (a new event being drawn) is none of ours: FullCalendar's own content
    if (content.isMirror) return true;
    const source = sourceOf(content.event.extendedProps);
    const status = source.status_title && <span className="rc-visually-hidden">{` – ${source.status_title}`}</span>;
    // a list has no clickable event of its own: a button, whose click FullCalendar takes as the event's
    if (content.view.type.startsWith('list'))
      return (
        <button type="button" className="rc-list-event" title={eventDescription(source)}>
          {source.title}
          {status}
        </button>
      );
    return (
      <Box component="span" className="rc-event" title={eventDescription(source)}>
        {content.timeText && <span className="rc-event-time">{content.timeText}</span>}
        <span className="rc-event-title">{source.title}</span>
        {status}
      </Box>
    );
  };

  const [previousLabel, nextLabel] =
    view === 'month' ? [t('calendar.previous'), t('calendar.next')] : view === 'week' ? [t('calendar.previousWeek'), t('calendar.nextWeek')] : [t('calendar.previousDay'), t('calendar.nextDay')];
  const language = i18n.resolvedLanguage === 'de' ? 'de' : 'en-gb';

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Button variant="outlined" onClick={() => api()?.today()}>
          {t('calendar.today')}
        </Button>
        <Tooltip title={previousLabel}>
          <IconButton aria-label={previousLabel} onClick={() => api()?.prev()}>
            <ChevronLeftIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={nextLabel}>
          <IconButton aria-label={nextLabel} onClick={() => api()?.next()}>
            <ChevronRightIcon />
          </IconButton>
        </Tooltip>
        <Typography component="h2" variant="h6" aria-live="polite" sx={{ flexGrow: 1, minWidth: '10rem' }}>
          {shown?.title ?? ''}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_event, next: CalendarView | null) => {
            if (next) api()?.changeView(views[next]);
          }}
          aria-label={t('calendar.views')}
        >
          <ToggleButton value="month">{t('calendar.month')}</ToggleButton>
          <ToggleButton value="week">{t('calendar.week')}</ToggleButton>
          <ToggleButton value="day">{t('calendar.day')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box sx={{ height: 4 }}>{events.isFetching && <LinearProgress aria-label={t('common.loading')} />}</Box>
      {events.error && <ErrorState error={events.error} onRetry={() => void events.refetch()} />}
      <Box ref={root} onKeyDown={onKeyDown} sx={calendarSx}>
        <FullCalendar
          ref={calendar}
          plugins={PLUGINS}
          initialView={views.month}
          headerToolbar={false}
          locales={LOCALES}
          locale={language}
          // wall-clock strings stay as they are (the account's local days), 'today' is the browser's
          timeZone="UTC"
          now={localNow}
          firstDay={1}
          fixedWeekCount={false}
          weekNumbers={view === 'month' && !phone}
          displayEventTime={!(phone && view === 'month')}
          allDayText={t('calendar.allDay')}
          height={view === 'month' || phone ? 'auto' : 640}
          slotDuration="01:00:00"
          scrollTime="07:00:00"
          slotLabelFormat={HOURS_MINUTES}
          eventTimeFormat={HOURS_MINUTES}
          dayMaxEvents={3}
          moreLinkClick={views.day}
          eventDisplay="block"
          selectable={mayWrite}
          selectMirror
          selectLongPressDelay={300}
          events={fullCalendarEvents}
          datesSet={onDatesSet}
          select={onSelect}
          eventClick={onEventClick}
          eventContent={renderEvent}
          eventDidMount={markAsButton}
          dayCellContent={renderDayCell}
          dayHeaderContent={renderDayHeader}
        />
      </Box>
      <EventDialog accountId={accountId} target={target} onClose={() => setTarget(null)} />
    </Box>
  );
}
