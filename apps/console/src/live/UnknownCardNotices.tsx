import { useCallback, useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TAttendanceLiveMessage } from '@rollcall/contracts';
import { unknownCardsPath } from '../paths';
import { formatTimeOfDay } from '../lib/zone-label';
import { unknownCardNotices } from './unknown-card-notices';

/**
 * A scan of a card no account holds, told on the live screens where an administrator watches the
 * doors (the push reaches only those who may manage readers): which card, at which door, when, and
 * the way to the list where it can be assigned or dismissed. `onMessages` goes to useLive. The
 * notices are the console's, not the screen's (live/unknown-card-notices.ts): they
 * stay while the administrator moves between live screens, until dismissed.
 */
export function useUnknownCardNotices() {
  const { t } = useTranslation();
  const notices = useSyncExternalStore(unknownCardNotices.subscribe, unknownCardNotices.current);
  const onMessages = useCallback((messages: readonly TAttendanceLiveMessage[]) => unknownCardNotices.add(messages), []);
  const element = (
    <Stack spacing={1} role="status" aria-live="polite" sx={{ mb: notices.length ? 2 : 0 }}>
      {notices.map((notice) => (
        <Alert
          key={notice.card_uid}
          severity="warning"
          action={
            <>
              <Button component={RouterLink} to={unknownCardsPath} color="inherit" size="small">
                {t('unknownCards.open')}
              </Button>
              <IconButton color="inherit" size="small" aria-label={t('live.dismiss')} title={t('live.dismiss')} onClick={() => unknownCardNotices.dismiss(notice)}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </>
          }
        >
          {t('unknownCards.notice', { uid: notice.card_uid, door: notice.door, time: formatTimeOfDay(notice.at) })}
        </Alert>
      ))}
    </Stack>
  );
  return { onMessages, element };
}
