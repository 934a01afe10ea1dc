import { useEffect, useState } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/** Spec: the progress bar is throttled by 200 ms, so quick answers never flash it. */
const PROGRESS_THROTTLE_MS = 200;

export function GlobalProgress() {
  const { t } = useTranslation();
  const busy = useIsFetching() + useIsMutating() > 0;
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) return;
    const timer = window.setTimeout(() => setVisible(true), PROGRESS_THROTTLE_MS);
    return () => {
      window.clearTimeout(timer);
      setVisible(false);
    };
  }, [busy]);
  if (!visible) return null;
  return (
    <LinearProgress
      aria-label={t('common.loading')}
      sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 3 }}
    />
  );
}
