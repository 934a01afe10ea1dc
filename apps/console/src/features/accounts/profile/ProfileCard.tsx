import { useId, useRef, useState, type ChangeEvent } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TAccount } from '@rollcall/contracts';
import { describeError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { fullName, initials } from '../../../lib/account-name';
import { formatDate } from '../../../lib/format-date';
import { formatInstant } from '../../../lib/zone-label';
import { useStatusLabel } from '../../../lib/use-status-label';
import { trpc } from '../../../trpc';

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });

/** Spec tab 2: avatar (click to upload), names, status, dates, telephone and e-mail lists. */
export function ProfileCard({ account }: { account: TAccount }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const statusLabel = useStatusLabel();
  const utils = trpc.useUtils();
  const input = useRef<HTMLInputElement>(null);
  const readingTitleId = useId();
  const [reading, setReading] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const setPicture = trpc.accounts.setPicture.useMutation();
  const picture = account.additional.profilePicture ?? undefined;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReading(true);
    let dataUrl: string;
    try {
      dataUrl = await readAsDataUrl(file);
    } catch {
      setReading(false);
      notify(t('accounts.profile.pictureReadFailed'), 'error');
      return;
    }
    setReading(false);
    setPicture.mutate(
      { id: account.id, picture: dataUrl },
      {
        onSuccess: () => {
          notify(t('accounts.profile.pictureSaved'), 'success');
          void utils.accounts.byId.invalidate({ id: account.id });
          void utils.auth.me.invalidate();
        },
        onError: (error) => notify(describeError(error, t), 'error'),
      },
    );
  };

  const removePicture = () =>
    setPicture.mutate(
      { id: account.id, picture: null },
      {
        onSuccess: () => {
          setConfirmRemove(false);
          notify(t('accounts.profile.pictureRemoved'), 'success');
          void utils.accounts.byId.invalidate({ id: account.id });
          void utils.auth.me.invalidate();
        },
        onError: (error) => {
          setConfirmRemove(false);
          notify(describeError(error, t), 'error');
        },
      },
    );

  const contacts = (title: string, entries: Array<{ value: string; type: string }>) => (
    <Box>
      <Typography variant="subtitle2" component="h3" color="text.secondary">
        {title}
      </Typography>
      {entries.length ? (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {entries.map((entry) => (
            <Box component="li" key={`${entry.type}:${entry.value}`} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {entry.value}
              </Typography>
              <Chip size="small" label={t(`accounts.profile.contactType.${entry.type}`, { defaultValue: entry.type })} />
            </Box>
          ))}
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('accounts.profile.none')}
        </Typography>
      )}
    </Box>
  );

  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'grid', gap: 2, justifyItems: 'center', textAlign: 'center' }}>
        <ButtonBase
          onClick={() => input.current?.click()}
          disabled={setPicture.isPending}
          title={t('accounts.profile.changePicture')}
          sx={{ borderRadius: '50%' }}
        >
          {/* named by its (hidden) text, not over the initials it shows (WCAG 2.5.3): the picture is decoration here */}
          <Avatar aria-hidden="true" src={picture} alt="" sx={{ width: 96, height: 96, bgcolor: 'primary.dark', color: '#fff', fontSize: 40 }}>
            {initials(account)}
          </Avatar>
          <Box component="span" sx={{ border: 0, clip: 'rect(0 0 0 0)', height: '1px', margin: '-1px', overflow: 'hidden', padding: 0, position: 'absolute', whiteSpace: 'nowrap', width: '1px' }}>
            {t('accounts.profile.changePicture')}
          </Box>
        </ButtonBase>
        {picture ? (
          <Button size="small" color="error" onClick={() => setConfirmRemove(true)} disabled={setPicture.isPending} sx={{ mt: -1 }}>
            {t('accounts.profile.removePicture')}
          </Button>
        ) : null}
        <input ref={input} type="file" accept="image/*" hidden data-testid="profile-picture-input" onChange={(event) => void onFile(event)} />
        <Box>
          <Typography variant="h6" component="h2">
            {fullName(account)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {account.username_readable}
          </Typography>
        </Box>
        <Chip label={statusLabel(account.status_id, account.status_title)} color={account.status_id === 1 ? 'success' : 'default'} variant="outlined" />
      </CardContent>
      <Divider />
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, m: 0, '& dt': { color: 'text.secondary' }, '& dd': { m: 0 } }}>
          <Typography component="dt" variant="body2">
            {t('accounts.profile.createdAt')}
          </Typography>
          <Typography component="dd" variant="body2">
            {formatDate(account.created_at)}
          </Typography>
          <Typography component="dt" variant="body2">
            {t('accounts.profile.lastLogin')}
          </Typography>
          <Typography component="dd" variant="body2" sx={account.last_login_at ? undefined : { color: 'error.main', fontWeight: 500 }}>
            {account.last_login_at ? formatInstant(account.last_login_at) : t('accounts.never')}
          </Typography>
        </Box>
        {contacts(t('accounts.profile.telephones'), account.additional.telephone)}
        {contacts(t('accounts.profile.emails'), account.additional.email)}
      </CardContent>
      <ConfirmDialog
        open={confirmRemove}
        title={t('accounts.profile.removePictureTitle')}
        message={t('accounts.profile.removePictureMessage')}
        busy={setPicture.isPending}
        onConfirm={removePicture}
        onCancel={() => setConfirmRemove(false)}
      />
      <Dialog open={reading} aria-labelledby={readingTitleId} slotProps={{ paper: { sx: { width: 400, maxWidth: 'calc(100% - 32px)' } } }}>
        <DialogTitle id={readingTitleId}>{t('accounts.profile.readingImage')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', justifyContent: 'center', pb: 3 }}>
          <CircularProgress aria-label={t('accounts.profile.readingImage')} />
        </DialogContent>
      </Dialog>
    </Card>
  );
}
