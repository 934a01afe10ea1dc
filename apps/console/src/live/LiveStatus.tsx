import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { formatTimeOfDay } from '../lib/zone-label';
import type { LiveConnection } from './use-live';

/** how long 'caught up' stays in view after a reconnection: long enough to be read, then out of the way */
const CAUGHT_UP_SHOWN_MS = 15_000;

/** true while what a live screen shows may be out of date: the channel was lost, or is being caught up */
export const isStale = (connection: LiveConnection) => connection.state === 'offline' || connection.state === 'catching-up';

/** how a screen marks its live data stale: dimmed, and announced by LiveNotice */
export const staleSx = (connection: LiveConnection) => (isStale(connection) ? { opacity: 0.55, filter: 'grayscale(1)', transition: 'opacity 200ms' } : { transition: 'opacity 200ms' });

/** the channel's state as a chip for the page header (as consoles show 'Live' beside a live view) */
export function LiveChip({ connection }: { connection: LiveConnection }) {
  const { t } = useTranslation();
  const [label, color] =
    connection.state === 'live'
      ? [t('live.state.live'), 'success' as const]
      : connection.state === 'offline'
        ? [t('live.state.offline'), 'error' as const]
        : connection.state === 'catching-up'
          ? [t('live.state.catchingUp'), 'warning' as const]
          : [t('live.state.connecting'), 'default' as const];
  return <Chip size="small" variant="outlined" color={color} label={label} data-live-state={connection.state} />;
}

/**
 * What happened to the channel, in words, below the page header: since when the screen is offline
 * (its data may be stale), and once it is back, that it has caught up. A polite live region, so a
 * screen reader hears it too (WAI-ARIA status role).
 */
export function LiveNotice({ connection }: { connection: LiveConnection }) {
  const { t } = useTranslation();
  const caughtUpAt = connection.state === 'live' ? connection.caughtUpAt : undefined;
  const [hiddenAt, setHiddenAt] = useState<Date | undefined>(undefined);
  useEffect(() => {
    if (!caughtUpAt) return;
    const timer = window.setTimeout(() => setHiddenAt(caughtUpAt), CAUGHT_UP_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [caughtUpAt]);

  let notice: { severity: 'warning' | 'info' | 'success'; text: string; onClose?: () => void } | null = null;
  if (connection.state === 'offline') notice = { severity: 'warning', text: t('live.offline', { time: formatTimeOfDay(connection.offlineSince) }) };
  else if (connection.state === 'catching-up') notice = { severity: 'info', text: t('live.catchingUp') };
  else if (caughtUpAt && hiddenAt !== caughtUpAt) notice = { severity: 'success', text: t('live.caughtUp', { time: formatTimeOfDay(caughtUpAt) }), onClose: () => setHiddenAt(caughtUpAt) };
  return (
    <div role="status" aria-live="polite">
      {notice && (
        <Alert severity={notice.severity} sx={{ mb: 2 }} onClose={notice.onClose} slotProps={{ closeButton: { title: t('live.dismiss') } }}>
          {notice.text}
        </Alert>
      )}
    </div>
  );
}
