import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import type { TStatisticsListInput } from '@rollcall/contracts';
import { DataTable } from '../../components/data-table';
import { SERVER_TABLE_QUERY, useServerTable } from '../../components/data-table/use-server-table';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';
import { AttendancePeriodPicker } from '../../components/AttendancePeriodPicker';
import { durationText } from '../../lib/attendance-format';
import { OrganizationPicker } from '../../components/organizations/OrganizationPicker';
import { downloadStatistics, StatisticsDownloadError, type StatisticsFormat } from './download-statistics';
import { StatisticsCharts } from './StatisticsCharts';
import { monthLabel, useStatisticsColumns } from './statistics-columns';
import { withZone } from '../../lib/zone-label';
import { statisticsFilters, statisticsInput } from './statistics-filters';

const useStatistics = (input: TStatisticsListInput) => trpc.attendanceReports.statistics.useQuery(input, SERVER_TABLE_QUERY);

/**
 * /statistics: attendance per account for a month (this month unless picked), within the
 * administrator's organizations, optionally one organization's subtree; the month's charts, a
 * server-paged table, and the whole month as CSV or XLSX.
 */
export default function StatisticsPage() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const table = useServerTable(useStatistics, { filters: statisticsFilters, toInput: statisticsInput });
  const { state, setFilters, input, list: statistics } = table;
  const columns = useStatisticsColumns(statistics.data?.data, statistics.data?.statuses, statistics.data?.month);
  const [downloading, setDownloading] = useState<StatisticsFormat | null>(null);

  const download = (format: StatisticsFormat) => {
    setDownloading(format);
    downloadStatistics({ date_at: input.date_at, organization_id: input.organization_id }, format)
      .catch((error: unknown) => notify(error instanceof StatisticsDownloadError && error.status === 403 ? t('errors.auth.forbidden') : t('statistics.downloadFailed'), 'error'))
      .finally(() => setDownloading(null));
  };
  const summary = statistics.data?.summary;
  // the averages are times of day, each account's in its own zone: the chips name the zone when every
  // account of the month is on this page and shares one, else they say whose clock they read
  const rows = statistics.data?.data ?? [];
  const zones = new Set(rows.map((row) => monthLabel(row.time_zone ?? 'UTC', statistics.data?.month)));
  const averageZone = summary && rows.length === summary.accounts && zones.size === 1 ? [...zones][0] : t('statistics.eachLocalTime');

  return (
    <>
      <PageHeader
        title={t('statistics.title')}
        actions={
          <>
            <Button variant="outlined" startIcon={<DownloadIcon />} disabled={downloading !== null} onClick={() => download('csv')}>
              {t('statistics.downloadCsv')}
            </Button>
            <Button variant="outlined" startIcon={<DownloadIcon />} disabled={downloading !== null} onClick={() => download('xlsx')}>
              {t('statistics.downloadXlsx')}
            </Button>
          </>
        }
      />
      <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 1, alignItems: 'flex-start', '& > *': { minWidth: 200, flex: '0 1 280px' } }}>
        <AttendancePeriodPicker
          period="monthly"
          label={t('statistics.month')}
          name="date_at"
          value={state.month}
          onChange={(month) => setFilters({ month })}
          helperText={statistics.data && !state.month ? t('statistics.thisMonth', { month: statistics.data.month.split('-').reverse().join('.') }) : undefined}
        />
        <OrganizationPicker label={t('statistics.organization')} name="organization" value={state.organization} onChange={(organization) => setFilters({ organization })} />
      </Box>
      {summary ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }} aria-label={t('statistics.summary')}>
          <Chip label={`${t('statistics.accounts')}: ${summary.accounts}`} />
          <Chip label={`${t('statistics.columns.totalTime')}: ${durationText(summary.total_time_logged)}`} />
          {summary.average_arrival ? <Chip color="primary" variant="outlined" label={`${withZone(t('attendance.averageArrival'), averageZone)}: ${summary.average_arrival}`} /> : null}
          {summary.average_departure ? <Chip color="primary" variant="outlined" label={`${withZone(t('attendance.averageDeparture'), averageZone)}: ${summary.average_departure}`} /> : null}
          {summary.average_working_hours !== null ? <Chip color="primary" variant="outlined" label={`${t('attendance.averageWorkingHours')}: ${durationText(summary.average_working_hours)}`} /> : null}
        </Box>
      ) : null}
      {statistics.data ? <StatisticsCharts statistics={statistics.data} /> : null}
      <DataTable
        {...table.props}
        label={t('statistics.tableLabel')}
        columns={columns}
        getRowId={(row) => row.account_id}
        emptyText={t('statistics.empty')}
      />
    </>
  );
}
