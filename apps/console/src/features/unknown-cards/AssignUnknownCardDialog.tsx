import { useId, useMemo, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TUnknownCard } from '@rollcall/contracts';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { SearchPicker, type SearchPickerOption } from '../../components/SearchPicker';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../components/use-field-errors';
import { fullName } from '../../lib/account-name';
import { trpc } from '../../trpc';
import { useSeenAt } from './seen-at';

const FIELD_NAMES = ['account_id', 'card_uid'] as const;

const useFindAccounts = (search: string) => {
  const found = trpc.accounts.findByUsername.useQuery({ username: search }, { enabled: search.length > 0, staleTime: 30_000, placeholderData: (previous) => previous });
  const data = useMemo<SearchPickerOption[] | undefined>(() => found.data?.map((account) => ({ id: account.id, title: fullName(account) || account.username_readable })), [found.data]);
  return { data, isFetching: found.isFetching };
};

/** 'Assign to an account': the card is registered to the account picked (POST scanner/unknown-cards/assign). */
export function AssignUnknownCardDialog({ card, onClose }: { card: TUnknownCard | null; onClose: () => void }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={card !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {card && <AssignForm key={card.card_uid} titleId={titleId} card={card} onClose={onClose} />}
    </Dialog>
  );
}

function AssignForm({ titleId, card, onClose }: { titleId: string; card: TUnknownCard; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const seenAt = useSeenAt();
  const [account, setAccount] = useState<SearchPickerOption | null>(null);
  const [missing, setMissing] = useState(false);
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const assign = trpc.smartCards.assign.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (assign.isPending) return;
    if (!account) return setMissing(true);
    assign.mutate(
      { card_uid: card.card_uid, account_id: account.id },
      {
        onSuccess: () => {
          notify(t('unknownCards.assignDialog.done', { uid: card.card_uid, name: account.title }), 'success');
          void utils.smartCards.unknownCards.invalidate();
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };
  return (
    <FormDialogLayout titleId={titleId} title={t('unknownCards.assignDialog.title', { uid: card.card_uid })} onSubmit={submit} onCancel={onClose} submitLabel={t('unknownCards.assignDialog.submit')} busy={assign.isPending}>
      <Typography variant="body2">{t('unknownCards.assignDialog.intro', { door: card.door, time: seenAt(card.scanned_at) })}</Typography>
      <SearchPicker
        label={t('unknownCards.assignDialog.account')}
        name="account_id"
        required
        autoFocus
        value={account}
        onChange={(value) => {
          setAccount(value);
          setMissing(false);
          clearErrors('account_id', 'card_uid');
        }}
        useFind={useFindAccounts}
        noOptionsText={t('unknownCards.assignDialog.noAccounts')}
        errors={missing ? [t('unknownCards.assignDialog.required')] : [...(errors.account_id ?? []), ...(errors.card_uid ?? [])]}
      />
    </FormDialogLayout>
  );
}
