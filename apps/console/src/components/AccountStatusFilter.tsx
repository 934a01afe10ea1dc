import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useStatusLabel } from '../lib/use-status-label';

export interface AccountStatusOption {
  id: number;
  label: string;
}

interface AccountStatusFilterProps {
  options: AccountStatusOption[];
  /** Selected status ids (at most one unless `multiple`). */
  value: number[];
  onChange: (ids: number[]) => void;
  multiple?: boolean;
  label?: string;
  loading?: boolean;
}

/** Shared widget: the account-status filter, single or multiple choice, clearable. */
export function AccountStatusFilter({ options, value, onChange, multiple = true, label, loading }: AccountStatusFilterProps) {
  const { t } = useTranslation();
  const statusLabel = useStatusLabel();
  const selected = options.filter((option) => value.includes(option.id));
  const common = {
    options,
    loading,
    size: 'small' as const,
    getOptionLabel: (option: AccountStatusOption) => statusLabel(option.id, option.label),
    isOptionEqualToValue: (a: AccountStatusOption, b: AccountStatusOption) => a.id === b.id,
    clearText: t('common.clear'),
    openText: t('common.open'),
    closeText: t('common.close'),
    loadingText: t('common.loading'),
    noOptionsText: t('common.noOptions'),
    renderInput: (params: object) => <TextField {...params} label={label ?? t('accounts.statusFilter')} />,
    sx: { minWidth: 260 },
  };

  if (multiple) {
    return (
      <Autocomplete
        {...common}
        multiple
        disableCloseOnSelect
        value={selected}
        onChange={(_event, next) => onChange(next.map((option) => option.id))}
        renderValue={(items, getItemProps) =>
          items.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return <Chip key={key} size="small" label={statusLabel(option.id, option.label)} {...itemProps} />;
          })
        }
      />
    );
  }
  return (
    <Autocomplete
      {...common}
      value={selected[0] ?? null}
      onChange={(_event, next) => onChange(next ? [next.id] : [])}
    />
  );
}
