import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import type { SxProps, Theme } from '@mui/material/styles';
import { PickerLocalization, TIME_FORMAT, TIME_WITH_SECONDS_FORMAT } from './date-pickers';
import { fieldMessages } from './field-messages';

/** what a time input holds: 'HH:mm' or 'HH:mm:ss' */
const TIME_VALUE = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

function parse(value: string): Dayjs | null {
  if (!TIME_VALUE.test(value)) return null;
  const parsed = dayjs(`2000-01-01T${value}`);
  return parsed.isValid() ? parsed : null;
}

export interface TimeFieldProps {
  label: string;
  /** 'HH:mm:ss' (or 'HH:mm'), a time of day as a time input holds it; '' for none */
  value: string;
  /** 'HH:mm:ss' ('HH:mm' without seconds); '' when cleared or while only part of a time is typed */
  onChange: (value: string) => void;
  name?: string;
  /** the form's or the server's messages for this field */
  errors?: string[];
  helperText?: string;
  required?: boolean;
  /** seconds too (the default: a calendar day ends at 23:59:59) */
  withSeconds?: boolean;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * The console's time-of-day field in place of the browser's time input (12-hour AM/PM in English):
 * HH:mm:ss on a 24-hour clock in both languages, typed section by section or picked from the clock.
 * Speaks the input's own value strings to its form.
 */
export function TimeField({ label, value, onChange, name, errors, helperText, required, withSeconds = true, fullWidth = false, sx }: TimeFieldProps) {
  const format = withSeconds ? TIME_WITH_SECONDS_FORMAT : TIME_FORMAT;
  const textOf = (time: Dayjs | null) => (time && time.isValid() ? time.format(format) : '');
  const [picked, setPicked] = useState<Dayjs | null>(() => parse(value));
  // the last value from outside: a different one (a reset, a new selection) replaces what is typed
  const [outside, setOutside] = useState(value);
  if (value !== outside) {
    setOutside(value);
    if (value !== textOf(picked)) setPicked(parse(value));
  }
  return (
    <PickerLocalization>
      <TimePicker
        label={label}
        name={name}
        value={picked}
        format={format}
        ampm={false}
        views={withSeconds ? ['hours', 'minutes', 'seconds'] : ['hours', 'minutes']}
        onChange={(next) => {
          setPicked(next);
          const text = textOf(next);
          setOutside(text);
          if (text !== value) onChange(text);
        }}
        slotProps={{
          field: { clearable: true },
          textField: {
            size: 'small',
            name,
            fullWidth,
            required,
            error: Boolean(errors?.length),
            // a blank line keeps the field as tall as its neighbours, so the form does not jump
            helperText: errors?.length ? fieldMessages(errors) : (helperText ?? ' '),
            sx,
          },
        }}
      />
    </PickerLocalization>
  );
}
