import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { TAccountSearchItem } from '@rollcall/contracts';
import { fullName } from '../../lib/account-name';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { trpc } from '../../trpc';
import { fieldMessages } from '../field-messages';

interface AccountsPickerProps {
  label: string;
  value: TAccountSearchItem[];
  onChange: (value: TAccountSearchItem[]) => void;
  errors?: string[];
  hint?: string;
  name?: string;
}

/** Several accounts picked by username (`accounts.findByUsername`, 300 ms after the last keystroke). */
export function AccountsPicker({ label, value, onChange, errors, hint, name }: AccountsPickerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim());
  const found = trpc.accounts.findByUsername.useQuery({ username: search }, { enabled: search.length > 0, staleTime: 30_000 });
  const message = errors?.length ? fieldMessages(errors) : hint;
  return (
    <Autocomplete
      multiple
      options={found.data ?? []}
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        // picking an option would otherwise leave its label as a new search
        if (reason !== 'reset') setText(next);
      }}
      filterOptions={(options) => options}
      filterSelectedOptions
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      getOptionLabel={(option) => `${option.username_readable} (${fullName(option)})`}
      getOptionKey={(option) => option.id}
      loading={found.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={search ? t('teams.create.noAccounts') : t('teams.create.typeUsername')}
      renderInput={(params) => <TextField {...params} name={name} label={label} error={Boolean(errors?.length)} helperText={message} />}
    />
  );
}
