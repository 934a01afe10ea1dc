import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import RebuildIcon from '@mui/icons-material/Autorenew';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TProjectionStatus, TRebuildState } from '@rollcall/contracts';
import { describeError } from '../../api/api-error';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { formatInstant } from '../../lib/zone-label';
import { trpc } from '../../trpc';

/** how often the table refreshes: lag and rate are only worth watching live */
const REFRESH_MS = 2000;

/**
 * /audit/projections: every read model's position, lag behind the head of the event
 * store, rate and state, refreshed every two seconds; the events each one set aside, with retry.
 */
export default function ProjectionsPage() {
  const { t } = useTranslation();
  const status = trpc.audit.projections.useQuery(undefined, { refetchInterval: REFRESH_MS });
  const [showing, setShowing] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={t('projections.title')} actions={status.data ? <RebuildButton rebuild={status.data.rebuild} onStarted={() => void status.refetch()} /> : undefined} />
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 800 }}>
        {t('projections.help')}
      </Typography>
      {status.isPending ? <LoadingState /> : null}
      {status.isError ? <ErrorState error={status.error} onRetry={() => void status.refetch()} /> : null}
      {status.data ? (
        <>
          <RebuildProgress rebuild={status.data.rebuild} />
          <SetAsideWarning projections={status.data.projections} />
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('projections.head', { head: status.data.head })}
          </Typography>
          {/* tabIndex: a table that scrolls sideways on a phone is reached and scrolled by keyboard too (WCAG 2.1.1) */}
          <TableContainer component={Paper} variant="outlined" tabIndex={0} aria-label={t('projections.tableLabel')}>
            <Table size="small" aria-label={t('projections.tableLabel')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('projections.columns.name')}</TableCell>
                  <TableCell>{t('projections.columns.state')}</TableCell>
                  <TableCell>{t('projections.columns.position')}</TableCell>
                  <TableCell align="right">{t('projections.columns.lag')}</TableCell>
                  <TableCell align="right">{t('projections.columns.rate')}</TableCell>
                  <TableCell align="right">{t('projections.columns.setAside')}</TableCell>
                  <TableCell>{t('projections.columns.lastError')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {status.data.projections.map((projection) => (
                  <ProjectionRow key={projection.name} projection={projection} onShowSetAside={() => setShowing(projection.name)} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      ) : null}
      {showing ? <SetAsideEvents projection={showing} /> : null}
    </>
  );
}

/**
 * A set-aside event is a write that was confirmed to its author but is missing from a read model: say
 * it above the table, not only in a column.
 */
function SetAsideWarning({ projections }: { projections: TProjectionStatus[] }) {
  const { t } = useTranslation();
  const total = projections.reduce((sum, projection) => sum + projection.set_aside, 0);
  if (total === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {t('projections.setAsideWarning', { count: total })}
    </Alert>
  );
}

const rebuildRuns = (rebuild: TRebuildState) => rebuild.status === 'running' || rebuild.status === 'swapping';

/** 'Rebuild': every read model into fresh tables, swapped in when caught up; the old ones serve meanwhile */
function RebuildButton({ rebuild, onStarted }: { rebuild: TRebuildState; onStarted: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const start = trpc.audit.rebuildProjections.useMutation();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const confirm = () =>
    start.mutate(undefined, {
      onSuccess: () => {
        setConfirmOpen(false);
        notify(t('projections.rebuildStarted'), 'success');
        onStarted();
      },
      onError: (error) => {
        setConfirmOpen(false);
        notify(describeError(error, t), 'error');
      },
    });
  return (
    <>
      <Button variant="outlined" startIcon={<RebuildIcon />} disabled={rebuildRuns(rebuild)} onClick={() => setConfirmOpen(true)}>
        {t('projections.rebuild')}
      </Button>
      <ConfirmDialog open={confirmOpen} title={t('projections.rebuildTitle')} message={t('projections.rebuildMessage')} busy={start.isPending} onConfirm={confirm} onCancel={() => setConfirmOpen(false)} />
    </>
  );
}

/** where the last rebuild stands: a bar while it runs (events replayed of those in the log), its outcome after */
function RebuildProgress({ rebuild }: { rebuild: TRebuildState }) {
  const { t } = useTranslation();
  if (rebuild.status === 'idle') return null;
  if (rebuildRuns(rebuild)) {
    const percent = rebuild.total > 0 ? Math.min(100, (100 * rebuild.replayed) / rebuild.total) : 0;
    return (
      <Box sx={{ mb: 2 }} role="status">
        <Typography variant="body2" sx={{ mb: 0.5 }}>
          {rebuild.status === 'swapping' ? t('projections.rebuildSwapping') : t('projections.rebuildRunning', { replayed: rebuild.replayed.toLocaleString(), total: rebuild.total.toLocaleString() })}
        </Typography>
        <LinearProgress variant={rebuild.status === 'swapping' ? 'indeterminate' : 'determinate'} value={percent} aria-label={t('projections.rebuildProgress')} />
      </Box>
    );
  }
  return (
    <Alert severity={rebuild.status === 'done' ? 'success' : 'error'} sx={{ mb: 2 }}>
      {rebuild.status === 'done'
        ? t('projections.rebuildDone', { replayed: rebuild.replayed.toLocaleString(), at: rebuild.finished_at ? formatInstant(rebuild.finished_at) : '' })
        : t('projections.rebuildFailed', { error: rebuild.error ?? '' })}
    </Alert>
  );
}

function ProjectionRow({ projection, onShowSetAside }: { projection: TProjectionStatus; onShowSetAside: () => void }) {
  const { t } = useTranslation();
  return (
    <TableRow>
      <TableCell sx={{ fontFamily: 'monospace' }}>{projection.name}</TableCell>
      <TableCell>
        <Chip size="small" color={projection.state === 'running' ? 'success' : 'error'} variant="outlined" label={t(`projections.state.${projection.state}`)} />
      </TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>{projection.position}</TableCell>
      <TableCell align="right">{projection.lag_more ? t('projections.lagMore', { count: projection.lag }) : projection.lag.toLocaleString()}</TableCell>
      <TableCell align="right">{projection.rate.toLocaleString()}</TableCell>
      <TableCell align="right">
        {projection.set_aside > 0 ? (
          <Link component="button" type="button" variant="body2" onClick={onShowSetAside} aria-label={`${t('projections.showSetAside')}: ${projection.name}`}>
            {projection.set_aside}
          </Link>
        ) : (
          0
        )}
      </TableCell>
      <TableCell sx={{ maxWidth: 360, wordBreak: 'break-word', color: projection.last_error ? 'error.main' : undefined }}>{projection.last_error ?? '—'}</TableCell>
    </TableRow>
  );
}

function SetAsideEvents({ projection }: { projection: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const events = trpc.audit.setAside.useQuery({ projection });
  const retry = trpc.audit.retrySetAside.useMutation();
  const run = (position: string) =>
    retry.mutate(
      { projection, position },
      {
        onSuccess: (outcome) => {
          notify(outcome.applied ? t('projections.retried', { position }) : t('projections.retryFailed', { error: outcome.error }), outcome.applied ? 'success' : 'error');
          void utils.audit.setAside.invalidate({ projection });
          void utils.audit.projections.invalidate();
        },
        onError: (error) => notify(describeError(error, t), 'error'),
      },
    );
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('projections.setAsideHeading', { name: projection })}
      </Typography>
      {events.isError ? <ErrorState error={events.error} onRetry={() => void events.refetch()} /> : null}
      {events.data?.length === 0 ? <Alert severity="success">{t('projections.noneSetAside')}</Alert> : null}
      {events.data && events.data.length > 0 ? (
        <TableContainer component={Paper} variant="outlined" tabIndex={0} aria-label={t('projections.setAsideLabel', { name: projection })}>
          <Table size="small" aria-label={t('projections.setAsideLabel', { name: projection })}>
            <TableHead>
              <TableRow>
                <TableCell>{t('projections.setAsideColumns.position')}</TableCell>
                <TableCell>{t('projections.setAsideColumns.type')}</TableCell>
                <TableCell>{t('projections.setAsideColumns.stream')}</TableCell>
                <TableCell>{t('projections.setAsideColumns.error')}</TableCell>
                <TableCell>{t('projections.setAsideColumns.at')}</TableCell>
                <TableCell align="right">{t('projections.setAsideColumns.attempts')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {events.data.map((event) => (
                <TableRow key={event.position}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{event.position}</TableCell>
                  <TableCell>{event.event_type}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{event.stream_id}</TableCell>
                  <TableCell sx={{ color: 'error.main', wordBreak: 'break-word' }}>{event.error}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatInstant(event.set_aside_at)}</TableCell>
                  <TableCell align="right">{event.attempts}</TableCell>
                  <TableCell>
                    <Button size="small" onClick={() => run(event.position)} disabled={retry.isPending}>
                      {t('projections.retry')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
    </Box>
  );
}
