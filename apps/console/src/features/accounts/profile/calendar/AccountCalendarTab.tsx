import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../../components/ErrorState';
import { useGrants } from '../../../../auth/use-grants';
import { trpc } from '../../../../trpc';
import { addDays, addMonths, localToday, monthGrid, shownDate, weekOf } from './calendar-grid';
import { EventDialog, type EventDialogTarget } from './EventDialog';
import { MonthView } from './MonthView';
import { WeekView } from './WeekView';

export type CalendarView = 'month' | 'week' | 'day';

/**
 * Account tab 'Calendar' (spec tab 8): month and week views (and a single day), Today, 'Previous
 * month' / 'Next month' (a week or a day in those views); a clicked day or hour slot opens a new event, a clicked event its edit
 * dialog. Dates are the account's local days as the server keeps them.
 */
export function AccountCalendarTab({ accountId }: { accountId: string }) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<CalendarView>('month');
  const [anchor, setAnchor] = useState(localToday);
  const [target, setTarget] = useState<EventDialogTarget | null>(null);
  const mayWrite = useGrants().may('attendance:write');

  const days = useMemo(() => (view === 'month' ? monthGrid(anchor).flat() : view === 'week' ? weekOf(anchor) : [anchor]), [view, anchor]);
  const events = trpc.calendar.events.useQuery({ account_id: accountId, from: days[0], to: days[days.length - 1] }, { placeholderData: (previous) => previous });

  const step = (direction: 1 | -1) => setAnchor((current) => (view === 'month' ? addMonths(current, direction) : addDays(current, direction * (view === 'week' ? 7 : 1))));
  const locale = i18n.resolvedLanguage === 'de' ? 'de-DE' : 'en-GB';
  const format = (date: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
  const heading =
    view === 'month'
      ? format(anchor, { month: 'long', year: 'numeric' })
      : view === 'week'
        ? `${shownDate(days[0])} – ${shownDate(days[6])}`
        : `${format(anchor, { weekday: 'long' })}, ${shownDate(anchor)}`;
  // back and next name the step they take: a month, a week or a day
  const [previousLabel, nextLabel] =
    view === 'month' ? [t('calendar.previous'), t('calendar.next')] : view === 'week' ? [t('calendar.previousWeek'), t('calendar.nextWeek')] : [t('calendar.previousDay'), t('calendar.nextDay')];
  const open = (next: EventDialogTarget) => {
    if (next.kind === 'create' && !mayWrite) return;
    setTarget(next);
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Button variant="outlined" onClick={() => setAnchor(localToday())}>
          {t('calendar.today')}
        </Button>
        <Tooltip title={previousLabel}>
          <IconButton aria-label={previousLabel} onClick={() => step(-1)}>
            <ChevronLeftIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={nextLabel}>
          <IconButton aria-label={nextLabel} onClick={() => step(1)}>
            <ChevronRightIcon />
          </IconButton>
        </Tooltip>
        <Typography component="h2" variant="h6" sx={{ flexGrow: 1, textTransform: 'capitalize' }}>
          {heading}
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={view} onChange={(_event, next: CalendarView | null) => next && setView(next)} aria-label={t('calendar.views')}>
          <ToggleButton value="month">{t('calendar.month')}</ToggleButton>
          <ToggleButton value="week">{t('calendar.week')}</ToggleButton>
          <ToggleButton value="day">{t('calendar.day')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box sx={{ height: 4 }}>{events.isFetching && <LinearProgress />}</Box>
      {events.error ? (
        <ErrorState error={events.error} onRetry={() => void events.refetch()} />
      ) : view === 'month' ? (
        <MonthView
          anchor={anchor}
          events={events.data ?? []}
          locale={locale}
          onDay={(date) => open({ kind: 'create', date })}
          onEvent={(event) => open({ kind: 'edit', event })}
          onMore={(date) => {
            setAnchor(date);
            setView('day');
          }}
        />
      ) : (
        <WeekView days={days} events={events.data ?? []} locale={locale} onDay={(date) => open({ kind: 'create', date })} onSlot={(date, hour) => open({ kind: 'create', date, hour })} onEvent={(event) => open({ kind: 'edit', event })} />
      )}
      <EventDialog accountId={accountId} target={target} onClose={() => setTarget(null)} />
    </Box>
  );
}
