import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import KeyIcon from '@mui/icons-material/Key';
import { useTranslation } from 'react-i18next';
import { formatInstant } from '../../lib/zone-label';
import type { TSecondFactorStatus } from '@rollcall/contracts';
import { describeError, getApiError } from '../../api/api-error';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { passkeysSupported } from '../../components/passkeys/passkey-ceremony';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';
import { AddPasskeyDialog } from './AddPasskeyDialog';
import { ConfirmWithSecondFactorDialog } from './ConfirmWithSecondFactorDialog';

type Factor = TSecondFactorStatus['factors'][number];

/**
 * The own passkeys (docs/adr/0029): each with its name, when it was added and last used; add one
 * (named), rename one, remove one after a current code or passkey. The last factor stays where the
 * password policy requires one.
 */
export function PasskeysSection({ status, onChanged }: { status: TSecondFactorStatus; onChanged: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Factor | null>(null);
  const [removing, setRemoving] = useState<Factor | null>(null);
  const remove = trpc.secondFactors.removePasskey.useMutation({
    onSuccess: () => {
      setRemoving(null);
      onChanged();
      notify(t('secondFactors.passkeys.removed'), 'success');
    },
  });
  const passkeys = status.factors.filter((factor) => factor.kind === 'passkey');
  const lastRequired = status.required && status.factors.length === 1;
  const when = (iso: string) => formatInstant(iso);
  return (
    <Box component="section" aria-labelledby="passkeys-title" sx={{ display: 'grid', gap: 1 }}>
      <Typography id="passkeys-title" variant="subtitle2" component="h3">
        {t('secondFactors.passkeys.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('secondFactors.passkeys.intro')}
      </Typography>
      {passkeys.length === 0 ? (
        <Typography variant="body2">{t('secondFactors.passkeys.none')}</Typography>
      ) : (
        <List dense aria-label={t('secondFactors.passkeys.listLabel')} disablePadding>
          {passkeys.map((passkey) => (
            <ListItem
              key={passkey.id}
              disableGutters
              data-testid="passkey"
              secondaryAction={
                <RowActionsMenu
                  label={t('secondFactors.passkeys.actionsFor', { name: passkey.name })}
                  actions={[
                    { label: t('secondFactors.passkeys.rename'), onSelect: () => setRenaming(passkey) },
                    { label: t('secondFactors.passkeys.remove'), onSelect: () => (remove.reset(), setRemoving(passkey)), disabled: lastRequired, hint: lastRequired ? t('secondFactors.panel.requiredKeep') : undefined },
                  ]}
                />
              }
            >
              <KeyIcon fontSize="small" sx={{ mr: 1.5, color: 'text.secondary' }} aria-hidden />
              <ListItemText
                primary={passkey.name}
                secondary={`${t('secondFactors.passkeys.registeredAt', { at: when(passkey.enrolled_at) })} · ${passkey.last_used_at ? t('secondFactors.passkeys.lastUsed', { at: when(passkey.last_used_at) }) : t('secondFactors.passkeys.neverUsed')}`}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      {passkeysSupported() ? (
        <Box>
          <Button variant="outlined" onClick={() => setAdding(true)}>
            {t('secondFactors.passkeys.add')}
          </Button>
        </Box>
      ) : (
        <Alert severity="info">{t('secondFactors.passkeys.unsupported')}</Alert>
      )}
      {adding && (
        <AddPasskeyDialog
          open
          confirmFirst={status.factors.length > 0 ? { hasPasskey: passkeys.length > 0 } : undefined}
          onClose={() => setAdding(false)}
          onAdded={() => {
            onChanged();
            notify(t('secondFactors.passkeys.added'), 'success');
          }}
        />
      )}
      {renaming && <RenamePasskeyDialog passkey={renaming} onClose={() => setRenaming(null)} onRenamed={onChanged} />}
      {removing && (
        <ConfirmWithSecondFactorDialog
          open
          title={t('secondFactors.passkeys.removeTitle', { name: removing.name ?? '' })}
          message={t('secondFactors.passkeys.removeMessage')}
          hasPasskey
          busy={remove.isPending}
          error={remove.error}
          onConfirm={(confirmation) => remove.mutate({ id: removing.id, confirmation })}
          onCancel={() => setRemoving(null)}
        />
      )}
    </Box>
  );
}

/** mounted while renaming one passkey: the field starts at its name */
function RenamePasskeyDialog({ passkey, onClose, onRenamed }: { passkey: Factor; onClose: () => void; onRenamed: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const titleId = useId();
  const [name, setName] = useState(passkey.name ?? '');
  const rename = trpc.secondFactors.renamePasskey.useMutation({
    onSuccess: () => {
      onRenamed();
      onClose();
      notify(t('secondFactors.passkeys.renamed'), 'success');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ id: passkey.id, name: name.trim() });
  };
  const nameError = getApiError(rename.error)?.fields?.name?.join(' ');
  return (
    <Dialog open disableEscapeKeyDown fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('secondFactors.passkeys.renameTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          {rename.error && !nameError && (
            <Alert severity="error" role="alert">
              {describeError(rename.error, t)}
            </Alert>
          )}
          <TextField
            label={t('secondFactors.passkeys.name')}
            name="passkey-name"
            required
            autoFocus
            sx={{ mt: 1 }}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={Boolean(nameError)}
            helperText={nameError ?? t('secondFactors.passkeys.nameHint')}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={rename.isPending}>
            {t('secondFactors.passkeys.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={rename.isPending} disabled={!name.trim()}>
            {t('secondFactors.passkeys.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
