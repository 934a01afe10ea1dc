import { useEffect, useRef } from 'react';
import { trpc } from '../../trpc';

/** Bursts of scans (a reader delivering its queue) refresh the lists once. */
const COALESCE_MS = 150;

/**
 * Follows live.attendance: a scan or a change of presence refreshes the arrivals / departures log
 * and the presence board, so rows appear as scans land. After a reconnect both are refreshed too
 * (scans may have landed while the socket was down).
 */
export function useLiveAttendance() {
  const utils = trpc.useUtils();
  const timer = useRef<number | undefined>(undefined);
  const starts = useRef(0);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const refresh = () => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      void utils.arrivalsDepartures.list.invalidate();
      void utils.arrivalsDepartures.presence.invalidate();
    }, COALESCE_MS);
  };

  trpc.live.attendance.useSubscription(undefined, {
    onStarted: () => {
      starts.current += 1;
      if (starts.current > 1) refresh();
    },
    // one commit's messages at a time
    onData: (messages) => {
      if (messages.some((message) => message.kind === 'attendance.scan' || message.kind === 'presence.changed' || message.kind === 'attendance.corrected')) refresh();
    },
    onError: (error) => {
      // The lists still work without live updates; the link reconnects on its own.
      console.warn('live.attendance subscription failed', error);
    },
  });
}
