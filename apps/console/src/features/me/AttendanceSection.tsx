import { useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TAccountAttendance, TOwnAttendance } from '@rollcall/contracts';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { dayText, durationText, zonedDateTime } from '../../lib/attendance-format';
import { formatDate } from '../../lib/format-date';
import { zoneLabel, zoneLabelsOf, zoneWithName } from '../../lib/zone-label';
import { trpc } from '../../trpc';

type Period = 'today' | 'week' | 'month';
const PERIODS: readonly Period[] = ['today', 'week', 'month'];

/**
 * One's own attendance: today, this week and this month with their totals, the arrivals and
 * departures of the chosen period, the month's absences from the calendar and the cards registered
 * to the account. Every time is in the zone that draws the account's days, and says which.
 */
export function AttendanceSection() {
  const { t } = useTranslation();
  const attendance = trpc.me.attendance.useQuery(undefined, { refetchOnWindowFocus: true });
  const [period, setPeriod] = useState<Period>('today');
  if (attendance.isPending) return <LoadingState />;
  if (attendance.isError) return <ErrorState error={attendance.error} onRetry={() => void attendance.refetch()} />;
  const data = attendance.data;
  // the offsets of the account's zone over the times shown: one ('UTC+1 (Europe/Berlin)'), or two across a daylight-saving change
  const zones = zoneLabelsOf(PERIODS.flatMap((name) => instantsOf(data[name])), data.time_zone);
  const labels: Record<Period, string> = { today: t('me.attendance.today'), week: t('me.attendance.week'), month: t('me.attendance.month') };

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" id="me-attendance-title" sx={{ mr: 1 }}>
          {t('me.attendance.title')}
        </Typography>
        <Chip size="small" variant="outlined" title={data.time_zone} label={t('attendance.timeZone', { zone: zoneWithName(data.time_zone, zones) })} />
      </Box>
      <Box component="ul" aria-label={t('me.attendance.totals')} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(3, minmax(0, 1fr))' } }}>
        {PERIODS.map((name) => (
          <Paper component="li" key={name} variant="outlined" sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {labels[name]} · {windowText(data[name])}
            </Typography>
            <Typography variant="h5" component="p" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {durationText(data[name].total_time_logged)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {t('me.attendance.arrivals', { count: data[name].attendance.filter((row) => row.arrived).length })}
            </Typography>
          </Paper>
        ))}
      </Box>

      <Paper component="section" variant="outlined" aria-labelledby="me-attendance-slots" sx={{ p: { xs: 1.5, sm: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 2 }}>
          <Typography id="me-attendance-slots" variant="h6" component="h3">
            {t('me.attendance.slotsTitle')}
          </Typography>
          <ToggleButtonGroup size="small" exclusive value={period} onChange={(_event, next: Period | null) => next && setPeriod(next)} aria-label={t('me.attendance.period')}>
            {PERIODS.map((name) => (
              <ToggleButton key={name} value={name}>
                {labels[name]}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
        <SlotsTable attendance={data[period]} timeZone={data.time_zone} showDay={period !== 'today'} />
      </Paper>

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, alignItems: 'start' }}>
        <Absences data={data} />
        <Cards data={data} />
      </Box>
    </Box>
  );
}

const instantsOf = (attendance: TAccountAttendance) => attendance.attendance.flatMap((row) => [row.arrived?.created_at, row.departed?.created_at]);

const windowText = (attendance: TAccountAttendance) => (attendance.from === attendance.to ? dayText(attendance.from) : `${dayText(attendance.from)} – ${dayText(attendance.to)}`);

/** today's rows are all of one day: no Day column; on a phone a day reads without its year, so the table fits */
function SlotsTable({ attendance, timeZone, showDay }: { attendance: TAccountAttendance; timeZone: string; showDay: boolean }) {
  const { t } = useTranslation();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const noData = t('attendance.noData');
  // the rows cross a daylight-saving change: each time says its offset
  const showZone = zoneLabelsOf(instantsOf(attendance), timeZone).length > 1;
  const time = (at: string) => `${zonedDateTime(at, timeZone).time}${showZone ? ` ${zoneLabel(timeZone, at)}` : ''}`;
  const day = (value: string) => (phone ? dayText(value).slice(0, 6) : dayText(value));
  return (
    // scrolls sideways on a narrow phone: focusable, so a keyboard can scroll it too
    <TableContainer tabIndex={0} role="region" aria-label={t('me.attendance.slotsTitle')}>
      <Table size="small" aria-label={t('me.attendance.slotsTitle')} sx={{ '& th, & td': { px: { xs: 1, sm: 2 }, whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            {showDay ? <TableCell>{t('me.attendance.day')}</TableCell> : null}
            <TableCell>{t('attendance.columns.timeArrived')}</TableCell>
            <TableCell>{t('attendance.columns.timeDeparted')}</TableCell>
            <TableCell align="right">{t('attendance.columns.totalTime')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {attendance.attendance.map((row, index) => (
            <TableRow key={`${row.day}-${index}`}>
              {showDay ? <TableCell>{day(row.day)}</TableCell> : null}
              <TableCell>{row.arrived ? time(row.arrived.created_at) : noData}</TableCell>
              <TableCell>{row.departed ? time(row.departed.created_at) : row.arrived ? t('me.attendance.stillIn') : noData}</TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {durationText(row.time_logged)}
              </TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell colSpan={showDay ? 3 : 2} sx={{ fontWeight: 600 }}>
              {t('attendance.totalLogged')}
            </TableCell>
            <TableCell align="right" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
              {durationText(attendance.total_time_logged)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function Absences({ data }: { data: TOwnAttendance }) {
  const { t } = useTranslation();
  return (
    <Paper component="section" variant="outlined" aria-labelledby="me-absences-title" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="me-absences-title" variant="h6" component="h3" gutterBottom>
        {t('me.attendance.absencesTitle')}
      </Typography>
      {data.absences.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('me.attendance.noAbsences')}
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
          {data.absences.map((event) => (
            <li key={event.id}>
              <Typography variant="body2">
                {formatDate(event.start_date)} · {event.status_title ?? event.title}
                {event.status_title && event.title !== event.status_title ? ` (${event.title})` : ''}
              </Typography>
            </li>
          ))}
        </Box>
      )}
    </Paper>
  );
}

function Cards({ data }: { data: TOwnAttendance }) {
  const { t } = useTranslation();
  return (
    <Paper component="section" variant="outlined" aria-labelledby="me-cards-title" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="me-cards-title" variant="h6" component="h3" gutterBottom>
        {t('me.attendance.cardsTitle')}
      </Typography>
      {data.cards.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('me.attendance.noCards')}
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
          {data.cards.map((card) => (
            <li key={card.id}>
              <Typography variant="body2">
                <Box component="span" sx={{ fontFamily: 'monospace' }}>
                  {card.card_uid}
                </Box>{' '}
                · {t('me.attendance.cardAdded', { date: formatDate(card.created_at) })}
              </Typography>
            </li>
          ))}
        </Box>
      )}
    </Paper>
  );
}
