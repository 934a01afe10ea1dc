import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { useTranslation } from 'react-i18next';
import { DATE_FORMAT, PickerLocalization } from './date-pickers';
import { fieldMessages } from './field-messages';

/** The wire format of every date (spec section 3); the admin sees DD.MM.YYYY (section 9). */
const WIRE_FORMAT = 'YYYY-MM-DD';
const SHOWN_FORMAT = DATE_FORMAT;

/**
 * Sent while the admin has typed only part of a date: the server answers it with its own
 * field error, where silently sending the old date or nothing would lose what was typed.
 */
export const INCOMPLETE_DATE = 'incomplete';

function parse(value: string): Dayjs | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const parsed = dayjs(value.slice(0, 10));
  return parsed.isValid() ? parsed : null;
}

function toWire(value: Dayjs | null): string {
  if (value === null) return '';
  return value.isValid() ? value.format(WIRE_FORMAT) : INCOMPLETE_DATE;
}

export interface DateFieldProps {
  label: string;
  /** YYYY-MM-DD, or '' for none */
  value: string;
  /** YYYY-MM-DD, '' when cleared, INCOMPLETE_DATE while only part of a date is typed */
  onChange: (value: string) => void;
  name?: string;
  /** the server's messages for this field */
  errors?: string[];
  helperText?: string;
  disabled?: boolean;
  disableFuture?: boolean;
  disablePast?: boolean;
  fullWidth?: boolean;
}

/**
 * A date picker that speaks YYYY-MM-DD strings to its form and DD.MM.YYYY to the admin. It brings
 * its own localization (date-pickers.tsx) so the picker code stays in the lazily loaded screens that use it.
 */
export function DateField({ label, value, onChange, name, errors, helperText, disabled, disableFuture, disablePast, fullWidth = true }: DateFieldProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<Dayjs | null>(() => parse(value));
  // what this field last reported: a different value from outside (a reset, a reload) replaces the typed one
  const [reported, setReported] = useState(value);
  if (value !== reported) {
    setReported(value);
    if (value !== INCOMPLETE_DATE) setPicked(parse(value));
  }
  const incomplete = value === INCOMPLETE_DATE;
  // a blank line keeps the field as tall as its neighbours with counters, so the form does not jump
  const messages = errors?.length ? fieldMessages(errors) : incomplete ? t('common.dateIncomplete', { format: SHOWN_FORMAT }) : (helperText ?? ' ');

  return (
    <PickerLocalization>
      <DatePicker
        label={label}
        name={name}
        value={picked}
        format={SHOWN_FORMAT}
        disabled={disabled}
        disableFuture={disableFuture}
        disablePast={disablePast}
        onChange={(next) => {
          setPicked(next);
          const wire = toWire(next);
          setReported(wire);
          onChange(wire);
        }}
        slotProps={{
          field: { clearable: true },
          textField: { size: 'small', fullWidth, error: Boolean(errors?.length) || incomplete, helperText: messages },
        }}
      />
    </PickerLocalization>
  );
}
