import { useMemo } from 'react';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TAttendanceStatistic } from '@rollcall/contracts';
import { fullName } from '../../lib/account-name';
import { toAccount } from '../../paths';
import { durationText } from '../../lib/attendance-format';

const figure = (text: string) => (
  <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
    {text}
  </Typography>
);

/** One account's month: who, days present, time logged and the averages (times of day in the account's zone). */
export function useStatisticsColumns(): ColumnDef<TAttendanceStatistic>[] {
  const { t } = useTranslation();
  return useMemo<ColumnDef<TAttendanceStatistic>[]>(() => {
    const noData = t('attendance.noData');
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
      { id: 'average_arrival', header: t('attendance.averageArrival'), cell: ({ row }) => figure(row.original.average_arrival ?? noData) },
      { id: 'average_departure', header: t('attendance.averageDeparture'), cell: ({ row }) => figure(row.original.average_departure ?? noData) },
      { id: 'average_working_hours', header: t('attendance.averageWorkingHours'), cell: ({ row }) => figure(row.original.average_working_hours === null ? noData : durationText(row.original.average_working_hours)) },
    ];
  }, [t]);
}
