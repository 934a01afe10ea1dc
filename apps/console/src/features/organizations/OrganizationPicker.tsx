import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { trpc } from '../../trpc';
import type { OrganizationOption } from './types';

interface OrganizationPickerProps {
  label: string;
  value: OrganizationOption | null;
  onChange: (value: OrganizationOption | null) => void;
  /** messages shown under the field in place of the hint */
  errors?: string[];
  hint?: string;
  name?: string;
  required?: boolean;
  autoFocus?: boolean;
  disabled?: boolean;
}

/**
 * The one organization search picker (create dialog's parent, delete dialog's destinations, the
 * account's association dialog): `organizations.find`, 300 ms after the last keystroke.
 */
export function OrganizationPicker({ label, value, onChange, errors, hint, name, required, autoFocus, disabled }: OrganizationPickerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  // the picked option's own label is not a search
  const search = useDebouncedValue(value && text === value.title ? '' : text.trim());
  const found = trpc.organizations.find.useQuery({ organization: search }, { staleTime: 30_000, placeholderData: (previous) => previous });
  const options = found.data ?? [];
  const withValue = value && !options.some((option) => option.id === value.id) ? [value, ...options] : options;
  const message = errors?.length ? errors.join(' ') : hint;
  return (
    <Autocomplete
      options={withValue}
      value={value}
      disabled={disabled}
      onChange={(_event, next) => onChange(next)}
      inputValue={text}
      onInputChange={(_event, next) => setText(next)}
      filterOptions={(all) => all}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      getOptionLabel={(option) => option.title}
      getOptionKey={(option) => option.id}
      loading={found.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('organizations.picker.none')}
      renderInput={(params) => (
        <TextField {...params} name={name} label={label} required={required} autoFocus={autoFocus} error={Boolean(errors?.length)} helperText={message} />
      )}
    />
  );
}
