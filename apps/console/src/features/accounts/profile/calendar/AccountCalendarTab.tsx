import { Suspense } from 'react';
import { LoadingState } from '../../../../components/LoadingState';
import { lazyWithReload } from '../../../../lib/lazy-with-reload';

/** FullCalendar and the panel on it come in their own chunk, loaded when the tab is first opened */
const CalendarPanel = lazyWithReload(() => import('./CalendarPanel'));

/** Account tab 'Calendar' (spec tab 8): see CalendarPanel. */
export function AccountCalendarTab({ accountId }: { accountId: string }) {
  return (
    <Suspense fallback={<LoadingState minHeight={480} />}>
      <CalendarPanel accountId={accountId} />
    </Suspense>
  );
}
