import { useMemo } from 'react';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TAttendanceStatistic, TStatusDays } from '@rollcall/contracts';
import { fullName } from '../../lib/account-name';
import { toAccount } from '../../paths';
import { durationText } from '../../lib/attendance-format';
import { zoneLabelsOf } from '../../lib/zone-label';

const figure = (text: string) => (
  <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
    {text}
  </Typography>
);

const zoneCaption = (label: string, timeZone: string) => (
  <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5 }} title={timeZone}>
    {label}
  </Typography>
);

/** a zone's labels over a month (its first and last day): 'UTC+1', or 'UTC+2 / UTC+1' across a daylight-saving change */
export const monthLabel = (timeZone: string, month: string | undefined) => {
  const [year, number] = (month ?? new Date().toISOString()).slice(0, 7).split('-').map(Number);
  const first = new Date(Date.UTC(year, number - 1, 1, 12)).toISOString();
  const last = new Date(Date.UTC(year, number, 0, 12)).toISOString();
  return zoneLabelsOf([first, last], timeZone).join(' / ') || timeZone;
};

/**
 * One account's month: who, days present, time logged and the averages (times of day in the
 * account's zone, as its days are drawn). The zone is labelled as every time in the console is,
 * by its offset (lib/zone-label.ts), once in the headers when every row of the page shares it, else
 * beside each average (its IANA name in the title); a month across a daylight-saving change names
 * both offsets ('UTC+2 / UTC+1').
 */
export function useStatisticsColumns(rows: readonly TAttendanceStatistic[] | undefined, statuses: readonly Pick<TStatusDays, 'status_id' | 'status'>[] = [], month?: string): ColumnDef<TAttendanceStatistic>[] {
  const { t } = useTranslation();
  // one column per attendance status of the month's absences (vacation, sick leave, ...): the account's days in it
  const statusKey = statuses.map((status) => `${status.status_id}:${status.status ?? ''}`).join('|');
  const zones = [...new Set((rows ?? []).map((row) => monthLabel(row.time_zone ?? 'UTC', month)))];
  const shared = zones.length === 1 ? zones[0] : null;
  return useMemo<ColumnDef<TAttendanceStatistic>[]>(() => {
    const noData = t('attendance.noData');
    const header = (label: string) => (shared ? `${label} (${shared})` : label);
    const average = (value: string | null, row: TAttendanceStatistic) =>
      value === null ? (
        figure(noData)
      ) : (
        <>
          {figure(value)}
          {!shared && zoneCaption(monthLabel(row.time_zone ?? 'UTC', month), row.time_zone ?? 'UTC')}
        </>
      );
    return [
      {
        id: 'account',
        header: t('statistics.columns.account'),
        cell: ({ row }) => (
          <>
            <Link component={RouterLink} to={`${toAccount(row.original.account_id)}?tab=attendance`} sx={{ fontWeight: 500 }}>
              {fullName(row.original) || row.original.username_readable}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {row.original.username_readable}
            </Typography>
          </>
        ),
      },
      { id: 'days_present', header: t('statistics.columns.daysPresent'), cell: ({ row }) => figure(String(row.original.days_present)) },
      { id: 'total_time_logged', header: t('statistics.columns.totalTime'), cell: ({ row }) => figure(durationText(row.original.total_time_logged)) },
      { id: 'average_arrival', header: header(t('attendance.averageArrival')), cell: ({ row }) => average(row.original.average_arrival, row.original) },
      { id: 'average_departure', header: header(t('attendance.averageDeparture')), cell: ({ row }) => average(row.original.average_departure, row.original) },
      { id: 'average_working_hours', header: t('attendance.averageWorkingHours'), cell: ({ row }) => figure(row.original.average_working_hours === null ? noData : durationText(row.original.average_working_hours)) },
      ...statuses.map(
        (status): ColumnDef<TAttendanceStatistic> => ({
          id: `absence_${status.status_id}`,
          header: t('statistics.columns.absenceDays', { status: status.status ?? t('statistics.deletedStatus') }),
          cell: ({ row }) => figure(String(row.original.absences?.find((absence) => absence.status_id === status.status_id)?.days ?? 0)),
        }),
      ),
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- statusKey stands for statuses
  }, [t, shared, statusKey, month]);
}
