import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { trpc } from '../trpc';
import { fieldMessages } from './field-messages';

interface TimeZoneFieldProps {
  label: string;
  name: string;
  /** '' when no zone is chosen */
  value: string;
  onValueChange: (zone: string) => void;
  errors?: string[];
  /** shown under the field when there is no error */
  hint?: string;
}

/** A searchable list of the server's time zones (`server/supported-time-zones`), loaded once per session. */
export function TimeZoneField({ label, name, value, onValueChange, errors, hint }: TimeZoneFieldProps) {
  const { t } = useTranslation();
  const timeZones = trpc.server.timeZones.useQuery(undefined, { staleTime: Infinity });
  return (
    <Autocomplete
      options={timeZones.data ?? []}
      loading={timeZones.isLoading}
      value={value || null}
      onChange={(_event, zone) => onValueChange(zone ?? '')}
      noOptionsText={t('common.noOptions')}
      loadingText={t('common.loading')}
      renderInput={(params) => <TextField {...params} label={label} name={name} error={Boolean(errors?.length)} helperText={errors?.length ? fieldMessages(errors) : hint} />}
    />
  );
}
