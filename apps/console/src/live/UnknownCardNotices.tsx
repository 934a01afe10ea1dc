import { useCallback, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TAttendanceLiveMessage } from '@rollcall/contracts';
import { unknownCardsPath } from '../paths';
import { timeOf } from '../lib/slot-times';

type UnknownCardMessage = Extract<TAttendanceLiveMessage, { kind: 'attendance.unknown_card' }>;

/** the latest few stay in view: a burst at a door should not push the screen's own content away */
const KEPT = 3;

/**
 * A scan of a card no account holds, told on the live screens where an administrator watches the
 * doors (the push reaches only those who may manage readers): which card, at which door, when, and
 * the way to the list where it can be assigned or dismissed. `onMessages` goes to useLive.
 */
export function useUnknownCardNotices() {
  const { t } = useTranslation();
  const [notices, setNotices] = useState<UnknownCardMessage[]>([]);
  const onMessages = useCallback((messages: readonly TAttendanceLiveMessage[]) => {
    const unknown = messages.filter((message): message is UnknownCardMessage => message.kind === 'attendance.unknown_card');
    if (unknown.length) setNotices((current) => [...unknown.reverse(), ...current.filter((notice) => !unknown.some((card) => card.card_uid === notice.card_uid))].slice(0, KEPT));
  }, []);
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
              <IconButton color="inherit" size="small" aria-label={t('live.dismiss')} title={t('live.dismiss')} onClick={() => setNotices((current) => current.filter((item) => item !== notice))}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </>
          }
        >
          {t('unknownCards.notice', { uid: notice.card_uid, door: notice.door, time: timeOf(notice.at) })}
        </Alert>
      ))}
    </Stack>
  );
  return { onMessages, element };
}
