import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { fieldMessages } from './field-messages';

export interface SearchPickerOption {
  id: string;
  title: string;
}

export interface SearchPickerProps<Option extends SearchPickerOption> {
  label: string;
  value: Option | null;
  onChange: (value: Option | null) => void;
  /** messages shown under the field in place of the hint */
  errors?: string[];
  hint?: string;
  name?: string;
  required?: boolean;
  autoFocus?: boolean;
  disabled?: boolean;
}

/**
 * A picker that searches the server as one types, 300 ms after the last keystroke (spec: search
 * debounce), and shows the options the server found. `useFind` is the list's query hook for a
 * search text; the picked option stays shown whatever the current search finds.
 */
export function SearchPicker<Option extends SearchPickerOption>({
  useFind,
  noOptionsText,
  label,
  value,
  onChange,
  errors,
  hint,
  name,
  required,
  autoFocus,
  disabled,
}: SearchPickerProps<Option> & { useFind: (search: string) => { data?: Option[]; isFetching: boolean }; noOptionsText: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  // the picked option's own label is not a search
  const search = useDebouncedValue(value && text === value.title ? '' : text.trim());
  const found = useFind(search);
  const options = found.data ?? [];
  const withValue = value && !options.some((option) => option.id === value.id) ? [value, ...options] : options;
  const message = errors?.length ? fieldMessages(errors) : hint;
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
      noOptionsText={noOptionsText}
      renderInput={(params) => <TextField {...params} name={name} label={label} required={required} autoFocus={autoFocus} error={Boolean(errors?.length)} helperText={message} />}
    />
  );
}
