import { useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TAccountAttendanceEntry } from '@rollcall/contracts';
import { ErrorState } from '../../../../components/ErrorState';
import { LoadingState } from '../../../../components/LoadingState';
import { trpc } from '../../../../trpc';
import { dayText, durationText, zonedDateTime } from '../../../../lib/attendance-format';
import { withZone, zoneLabel, zoneLabelsOf, zoneWithName } from '../../../../lib/zone-label';
import { AttendancePeriodPicker, type AttendancePeriod } from '../../../../components/AttendancePeriodPicker';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import EditNoteIcon from '@mui/icons-material/EditNote';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import { useGrants } from '../../../../auth/use-grants';
import { AddAttendanceRecordDialog } from './AddAttendanceRecordDialog';

const PERIODS: readonly AttendancePeriod[] = ['daily', 'weekly', 'monthly'];

/**
 * Spec tab 9, 'Attendance': the account's slots of a day, a week (Monday to Sunday) or a month, in
 * the account's own time zone, with the time logged and the averages as chips. Changing the mode
 * clears the date (the server then shows today, or this month); changing the date reloads. Each
 * day names its absences (attendance statuses in the calendar); a slot added by hand says so, with
 * its reason; an administrator who may write attendance adds such a slot with 'Add record'.
 */
export function AccountAttendanceTab({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<AttendancePeriod>('daily');
  const [date, setDate] = useState('');
  const attendance = trpc.attendanceReports.ofAccount.useQuery({ account_id: accountId, selected: period, date_at: date || undefined }, { placeholderData: keepPreviousData });
  const data = attendance.data;
  // the offsets of the account's zone over the times shown: one names them all in the footnote ('UTC+1 (Europe/Berlin)')
  const zones = data ? zoneLabelsOf(data.attendance.flatMap((row) => [row.arrived?.created_at, row.departed?.created_at]), data.time_zone) : [];
  const averages = data?.extra[0];
  // the averages are times of day in the account's zone: their chips say which, as the footnote does
  const averageZone = data ? (zones.length ? zones.join(' / ') : zoneLabel(data.time_zone)) : null;
  const noData = t('attendance.noData');
  const grants = useGrants();
  const [adding, setAdding] = useState(false);

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {t('attendance.title')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          {grants.may('attendance:write') && data ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} sx={{ mt: 0.25 }}>
              {t('attendance.addRecord')}
            </Button>
          ) : null}
          <TextField
            select
            fullWidth={false}
            size="small"
            label={t('attendance.showData')}
            name="selected"
            value={period}
            onChange={(event) => {
              setPeriod(event.target.value as AttendancePeriod);
              setDate('');
            }}
            sx={{ width: 180 }}
            helperText=" "
          >
            {PERIODS.map((name) => (
              <MenuItem key={name} value={name}>
                {t(`attendance.periods.${name}`)}
              </MenuItem>
            ))}
          </TextField>
          <AttendancePeriodPicker
            period={period}
            label={t(period === 'monthly' ? 'attendance.month' : period === 'weekly' ? 'attendance.week' : 'attendance.day')}
            name="date_at"
            value={date}
            onChange={setDate}
            // a week's or month's days; a day's field already says its date (the line stays, aligned with 'Show data')
            helperText={data ? (data.from === data.to ? ' ' : `${dayText(data.from)} – ${dayText(data.to)}`) : undefined}
          />
        </Box>
      </Box>
      {attendance.isLoading ? (
        <LoadingState />
      ) : attendance.error || !data ? (
        <ErrorState error={attendance.error} onRetry={() => void attendance.refetch()} />
      ) : (
        <>
          {averages && (averages.average_arrival || averages.average_departure || averages.average_working_hours !== null) ? (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }} aria-label={t('attendance.averages')}>
              {averages.average_arrival ? <Chip color="primary" variant="outlined" title={data?.time_zone} label={`${withZone(t('attendance.averageArrival'), averageZone)}: ${averages.average_arrival}`} /> : null}
              {averages.average_departure ? <Chip color="primary" variant="outlined" title={data?.time_zone} label={`${withZone(t('attendance.averageDeparture'), averageZone)}: ${averages.average_departure}`} /> : null}
              {averages.average_working_hours !== null ? <Chip color="primary" variant="outlined" label={`${t('attendance.averageWorkingHours')}: ${durationText(averages.average_working_hours)}`} /> : null}
            </Box>
          ) : null}
          {/* tabIndex: on a phone the table scrolls sideways; a keyboard reaches and scrolls it too (WCAG 2.1.1) */}
          <TableContainer component={Paper} variant="outlined" tabIndex={0} aria-label={t('attendance.tableLabel')} sx={{ opacity: attendance.isFetching ? 0.6 : 1 }}>
            <Table size="small" aria-label={t('attendance.tableLabel')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('attendance.columns.dateArrived')}</TableCell>
                  <TableCell>{t('attendance.columns.timeArrived')}</TableCell>
                  <TableCell>{t('attendance.columns.dateDeparted')}</TableCell>
                  <TableCell>{t('attendance.columns.timeDeparted')}</TableCell>
                  <TableCell align="right">{t('attendance.columns.totalTime')}</TableCell>
                  <TableCell>{t('attendance.columns.notes')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.attendance.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={6}>{t('attendance.empty')}</TableCell>
                  </TableRow>
                ) : (
                  data.attendance.map((row, index) => (
                    // a day's absences once, on its first row
                    <AttendanceRow key={`${row.day}-${row.arrived?.created_at ?? index}`} row={row} timeZone={data.time_zone} showZone={zones.length > 1} noData={noData} firstOfDay={index === 0 || data.attendance[index - 1].day !== row.day} />
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            <Typography variant="body2" color="text.secondary" title={data.time_zone}>
              {t('attendance.timeZone', { zone: zoneWithName(data.time_zone, zones) })}
            </Typography>
            <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {t('attendance.totalLogged')}: <strong>{durationText(data.total_time_logged)}</strong>
            </Typography>
          </Box>
          <AddAttendanceRecordDialog open={adding} accountId={accountId} timeZone={data.time_zone} onClose={() => setAdding(false)} />
        </>
      )}
    </>
  );
}

function AttendanceRow({ row, timeZone, showZone, noData, firstOfDay }: { row: TAccountAttendanceEntry; timeZone: string; showZone: boolean; noData: string; firstOfDay: boolean }) {
  const { t } = useTranslation();
  // the period crosses a daylight-saving change: each time says its offset (the footnote names both)
  const zoned = (at: string) => (({ date, time }) => ({ date, time: showZone ? `${time} ${zoneLabel(timeZone, at)}` : time }))(zonedDateTime(at, timeZone));
  const arrived = row.arrived ? zoned(row.arrived.created_at) : null;
  const departed = row.departed ? zoned(row.departed.created_at) : null;
  const missing = (
    <Typography component="span" variant="body2" color="text.secondary">
      {noData}
    </Typography>
  );
  return (
    <TableRow hover>
      {/* a day without data still names its day */}
      <TableCell>{arrived ? arrived.date : <Typography component="span" variant="body2" color="text.secondary">{dayText(row.day)}</Typography>}</TableCell>
      <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{arrived ? arrived.time : missing}</TableCell>
      <TableCell>{departed ? departed.date : missing}</TableCell>
      <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{departed ? departed.time : missing}</TableCell>
      <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {departed ? durationText(row.time_logged) : missing}
      </TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
          {(firstOfDay ? (row.absences ?? []) : []).map((absence) => (
            <Tooltip key={`${absence.status_id}-${absence.title}`} title={absence.title}>
              <Chip size="small" color="secondary" variant="outlined" icon={<EventBusyIcon />} label={absence.status ?? t('attendance.deletedStatus')} />
            </Tooltip>
          ))}
          {row.manual ? (
            <>
              <Chip size="small" variant="outlined" icon={<EditNoteIcon />} label={t('attendance.manual')} />
              <Typography component="span" variant="caption" color="text.secondary">
                {row.manual.reason}
              </Typography>
            </>
          ) : null}
          {row.corrected ? <Chip size="small" label={t('attendance.corrected')} sx={{ bgcolor: 'info.dark', color: 'common.white' }} /> : null}
        </Box>
      </TableCell>
    </TableRow>
  );
}
