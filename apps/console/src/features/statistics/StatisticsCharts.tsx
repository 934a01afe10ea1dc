import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TAttendanceStatistics } from '@rollcall/contracts';
import { fullName } from '../../lib/account-name';

const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;

/** every day of a month (YYYY-MM), with the days the server reported and zeros for the others */
export function monthDays(month: string, days: TAttendanceStatistics['days']) {
  const [year, monthNumber] = month.split('-').map(Number);
  const count = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const byDay = new Map(days.map((day) => [day.day, day]));
  return Array.from({ length: count }, (_, index) => {
    const day = `${month}-${String(index + 1).padStart(2, '0')}`;
    const found = byDay.get(day);
    return { day: index + 1, present: found?.present ?? 0, hours: hours(found?.total_time_logged ?? 0) };
  });
}

/** The month at a glance: people present and hours logged per day, and the hours of the accounts on this page. */
export function StatisticsCharts({ statistics }: { statistics: TAttendanceStatistics }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const perDay = useMemo(() => monthDays(statistics.month, statistics.days), [statistics.month, statistics.days]);
  const perAccount = useMemo(() => statistics.data.map((row) => ({ name: fullName(row) || row.username_readable, hours: hours(row.total_time_logged) })), [statistics.data]);
  const presentLabel = t('statistics.charts.present');
  const hoursLabel = t('statistics.charts.hours');
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, mb: 2 }}>
      <Paper variant="outlined" sx={{ p: 2 }} role="figure" aria-label={t('statistics.charts.perDay')}>
        <Typography variant="subtitle2" component="h2" gutterBottom>
          {t('statistics.charts.perDay')}
        </Typography>
        <Box sx={{ height: 260 }}>
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={perDay} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="day" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
              <YAxis yAxisId="present" allowDecimals={false} tick={{ fontSize: 12 }} />
              <YAxis yAxisId="hours" orientation="right" tick={{ fontSize: 12 }} />
              <Tooltip />
              <Legend />
              <Bar yAxisId="present" dataKey="present" name={presentLabel} fill={theme.palette.primary.main} isAnimationActive={false} />
              <Line yAxisId="hours" dataKey="hours" name={hoursLabel} stroke={theme.palette.secondary.main} dot={false} isAnimationActive={false} />
            </ComposedChart>
          </ResponsiveContainer>
        </Box>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }} role="figure" aria-label={t('statistics.charts.perAccount')}>
        <Typography variant="subtitle2" component="h2" gutterBottom>
          {t('statistics.charts.perAccount')}
        </Typography>
        <Box sx={{ height: 260 }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={perAccount} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" tick={{ fontSize: 12 }} />
              <YAxis type="category" dataKey="name" width={140} tick={{ fontSize: 12 }} />
              <Tooltip />
              <Bar dataKey="hours" name={hoursLabel} fill={theme.palette.primary.main} maxBarSize={28} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </Box>
      </Paper>
    </Box>
  );
}
