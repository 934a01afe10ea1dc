import { useId, useState, type FormEvent } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Dialog from '@mui/material/Dialog';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import type { TAccountSearchItem } from '@rollcall/contracts';
import { describeError, splitFieldErrors } from '../../../api/api-error';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { fullName } from '../../../lib/account-name';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { trpc } from '../../../trpc';
import type { OrganizationOption } from '../types';
import { fieldMessages } from '../../../components/field-messages';

/** 'New member': an account picked by username (300 ms search), added to the organization. */
export function AddMemberDialog({ open, organization, onClose }: { open: boolean; organization: OrganizationOption; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      <AddMemberForm titleId={titleId} organization={organization} onClose={onClose} />
    </Dialog>
  );
}

function AddMemberForm({ titleId, organization, onClose }: { titleId: string; organization: OrganizationOption; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [account, setAccount] = useState<TAccountSearchItem | null>(null);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const search = useDebouncedValue(text.trim());
  const found = trpc.accounts.findByUsername.useQuery({ username: search }, { enabled: search.length > 0, staleTime: 30_000 });
  const add = trpc.organizations.addMember.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!account) {
      setErrors([t('organizations.members.pickAccount')]);
      return;
    }
    add.mutate(
      { id: organization.id, account_id: account.id },
      {
        onSuccess: ({ message }) => {
          notify(message, 'success');
          void utils.organizations.invalidate();
          onClose();
        },
        onError: (error) => {
          const { fields, notice } = splitFieldErrors(error, ['account_id'], t);
          // 'Account and organization already associated!' and its kind belong under the picker
          setErrors(fields.account_id ?? [notice ?? describeError(error, t)]);
        },
      },
    );
  };

  const label = (option: TAccountSearchItem) => `${option.username_readable} (${fullName(option)})`;
  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('organizations.members.addTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('organizations.members.addSubmit')} busy={add.isPending}>
        <Autocomplete
          options={found.data ?? []}
          value={account}
          onChange={(_event, next) => {
            setAccount(next);
            setErrors(undefined);
          }}
          onInputChange={(_event, next) => setText(next)}
          filterOptions={(options) => options}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          getOptionLabel={label}
          getOptionKey={(option) => option.id}
          loading={found.isFetching}
          loadingText={t('common.loading')}
          noOptionsText={search ? t('organizations.members.noAccounts') : t('organizations.members.typeUsername')}
          renderInput={(params) => (
            <TextField
              {...params}
              name="account_id"
              label={t('organizations.members.account')}
              required
              autoFocus
              error={Boolean(errors)}
              helperText={fieldMessages(errors) ?? t('organizations.members.accountHint', { title: organization.title })}
            />
          )}
        />
      </FormDialogLayout>
    </>
  );
}
