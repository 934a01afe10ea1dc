import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ClearIcon from '@mui/icons-material/Clear';
import { useTranslation } from 'react-i18next';
import { useStatusLabel } from '../lib/use-status-label';

export interface AccountStatusOption {
  id: number;
  label: string;
}

interface AccountStatusFilterProps {
  options: AccountStatusOption[];
  /** the selected status ids */
  value: number[];
  onChange: (ids: number[]) => void;
  loading?: boolean;
}

/**
 * The accounts list's 'Filter by Account Status': any number of statuses, shown as chips, clearable.
 * A select rather than an Autocomplete: the handful of statuses needs no typing, and the list, the
 * console's first screen, ships without the Autocomplete and Popper code (its budget: docs/benchmarks.md,
 * console-first-screen).
 */
export function AccountStatusFilter({ options, value, onChange, loading }: AccountStatusFilterProps) {
  const { t } = useTranslation();
  const statusLabel = useStatusLabel();
  const labelOf = (id: number) => {
    const option = options.find((candidate) => candidate.id === id);
    return option ? statusLabel(option.id, option.label) : String(id);
  };
  // the URL's statuses show as numbers until the statuses are loaded; one the server does not know is dropped then
  const selected = options.length ? value.filter((id) => options.some((option) => option.id === id)) : value;

  return (
    <TextField
      select
      size="small"
      label={t('accounts.statusFilter')}
      value={selected}
      sx={{ width: 320 }}
      slotProps={{
        select: {
          multiple: true,
          onChange: (event) => onChange((event.target.value as unknown as number[]).map(Number)),
          renderValue: (ids) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {(ids as number[]).map((id) => (
                <Chip key={id} size="small" label={labelOf(id)} />
              ))}
            </Box>
          ),
        },
        input: {
          endAdornment: selected.length ? (
            <InputAdornment position="end" sx={{ mr: 2 }}>
              <IconButton size="small" aria-label={t('common.clear')} title={t('common.clear')} onClick={() => onChange([])}>
                <ClearIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : undefined,
        },
      }}
    >
      {loading && !options.length ? (
        <MenuItem disabled value="">
          {t('common.loading')}
        </MenuItem>
      ) : (
        options.map((option) => (
          <MenuItem key={option.id} value={option.id}>
            {statusLabel(option.id, option.label)}
          </MenuItem>
        ))
      )}
      {!loading && !options.length && (
        <MenuItem disabled value="">
          {t('common.noOptions')}
        </MenuItem>
      )}
    </TextField>
  );
}
