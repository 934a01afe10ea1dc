import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TUnknownCard } from '@rollcall/contracts';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';

const FIELD_NAMES = ['card_uid', 'reason'] as const;
const REASON_MAX = 500;

/** 'Dismiss': the card leaves the list as an event with a reason (POST scanner/unknown-cards/dismiss). */
export function DismissUnknownCardDialog({ card, onClose }: { card: TUnknownCard | null; onClose: () => void }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={card !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {card && <DismissForm key={card.card_uid} titleId={titleId} card={card} onClose={onClose} />}
    </Dialog>
  );
}

function DismissForm({ titleId, card, onClose }: { titleId: string; card: TUnknownCard; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [reason, setReason] = useState('');
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const dismiss = trpc.smartCards.dismissUnknown.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dismiss.isPending) return;
    dismiss.mutate(
      { card_uid: card.card_uid, reason },
      {
        onSuccess: () => {
          notify(t('unknownCards.dismissDialog.done', { uid: card.card_uid }), 'success');
          void utils.smartCards.unknownCards.invalidate();
          onClose();
        },
        onError: (error) => {
          showServerErrors(error);
          // gone meanwhile (assigned or dismissed elsewhere): the list shows what is true now
          void utils.smartCards.unknownCards.invalidate();
        },
      },
    );
  };
  const reasonErrors = [...(errors.reason ?? []), ...(errors.card_uid ?? [])];
  return (
    <FormDialogLayout titleId={titleId} title={t('unknownCards.dismissDialog.title', { uid: card.card_uid })} onSubmit={submit} onCancel={onClose} submitLabel={t('unknownCards.dismissDialog.submit')} busy={dismiss.isPending}>
      <Typography variant="body2">{t('unknownCards.dismissDialog.intro')}</Typography>
      <TextField
        label={t('unknownCards.dismissDialog.reason')}
        name="reason"
        multiline
        minRows={2}
        autoFocus
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
          clearErrors('reason', 'card_uid');
        }}
        error={reasonErrors.length > 0}
        helperText={reasonErrors.length ? reasonErrors.join(' ') : `${reason.length}/${REASON_MAX}`}
        slotProps={{ htmlInput: { maxLength: REASON_MAX } }}
      />
    </FormDialogLayout>
  );
}
