import { useId } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { fullName } from '../../../../lib/account-name';
import { formatInstant } from '../../../../lib/zone-label';
import { toAccount } from '../../../../paths';
import { trpc } from '../../../../trpc';
import type { RegisterModeState } from './use-register-mode';

/**
 * A card another account holds was scanned: nothing was added and the readers wait on. Whose it is
 * comes from `readers.cardHolder`, which names the holder only to who may read that account
 * (docs/adr/0011); otherwise the card belongs to 'another account you cannot see'.
 */
function CardTakenNotice({ accountId, cardUid, onLeave }: { accountId: string; cardUid: string; onLeave: () => void }) {
  const { t } = useTranslation();
  const holder = trpc.readers.cardHolder.useQuery({ account_id: accountId, card_uid: cardUid });
  const answer = holder.data;
  return (
    <Alert severity="warning" role="alert">
      {!answer ? (
        t('smartCards.taken.checking', { uid: cardUid })
      ) : answer.held && answer.visible ? (
        <Trans
          i18nKey="smartCards.taken.visible"
          values={{ uid: cardUid, name: fullName(answer) }}
          components={{ owner: <Link component={RouterLink} to={toAccount(answer.account_id)} onClick={onLeave} /> }}
        />
      ) : answer.held ? (
        t('smartCards.taken.hidden', { uid: cardUid })
      ) : (
        t('smartCards.taken.freed', { uid: cardUid })
      )}
    </Alert>
  );
}

/**
 * 'Add a smartcard' (spec tab 3): persistent, 500 wide, 'Scan a card in order to add it' and Cancel.
 * It waits while register mode is armed; the live message of the registered card closes it.
 */
export function AddSmartCardDialog({ state, onCancel, accountId }: { state: RegisterModeState; onCancel: () => void; accountId?: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const waiting = !state.error;
  return (
    <Dialog
      open={state.open}
      disableEscapeKeyDown
      aria-labelledby={titleId}
      aria-describedby={textId}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId}>{t('smartCards.dialog.title')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <DialogContentText id={textId}>{t('smartCards.dialog.text')}</DialogContentText>
        {state.error ? <Alert severity="error">{state.error}</Alert> : null}
        {state.taken && accountId ? <CardTakenNotice key={state.taken.cardUid} accountId={accountId} cardUid={state.taken.cardUid} onLeave={onCancel} /> : null}
        {waiting ? <LinearProgress aria-label={state.expiresAt ? t('smartCards.dialog.waiting') : t('smartCards.dialog.arming')} /> : null}
        {waiting && state.expiresAt ? (
          <Typography variant="body2" color="text.secondary">
            {t('smartCards.dialog.armed', { count: state.readers.length, time: formatInstant(state.expiresAt) })}
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
