import { useState, type KeyboardEvent } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import type { SxProps, Theme } from '@mui/material/styles';
import { DATE_FORMAT, PickerLocalization, TIME_FORMAT, TIME_WITH_SECONDS_FORMAT } from './date-pickers';
import { fieldMessages } from './field-messages';

/** what a datetime-local input holds: a local date and time of the browser's zone, without a zone */
const LOCAL_VALUE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

function parse(value: string): Dayjs | null {
  if (!LOCAL_VALUE.test(value)) return null;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed : null;
}

export interface DateTimeFieldProps {
  label: string;
  /** 'YYYY-MM-DDTHH:mm' (or with ':ss'), a local time of the browser's zone as a datetime-local input holds it; '' for none */
  value: string;
  /** the same form; '' when cleared or while only part of a date and time is typed */
  onChange: (value: string) => void;
  name?: string;
  /** the server's messages for this field */
  errors?: string[];
  /** marks the field invalid without a message of its own (a message shown elsewhere) */
  error?: boolean;
  helperText?: string;
  /** marks the label as required (the form checks it) */
  required?: boolean;
  /** seconds too (time travel goes to the second) */
  withSeconds?: boolean;
  disablePast?: boolean;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  /**
   * Report only when the admin is done: on leaving the field, on Enter, or on a pick from the
   * calendar (a filter that queries as it changes would otherwise run, and re-render, mid-typing).
   */
  commitOnBlur?: boolean;
}

/**
 * The console's date-and-time field in place of the browser's datetime-local input: DD.MM.YYYY HH:mm
 * (24-hour, both languages), typed section by section or picked from the calendar and clock, in
 * the browser's zone as the input was. Speaks the input's own value strings to its form.
 */
export function DateTimeField({ label, value, onChange, name, errors, error, helperText, required, withSeconds = false, disablePast, fullWidth = false, sx, commitOnBlur = false }: DateTimeFieldProps) {
  const wire = withSeconds ? 'YYYY-MM-DDTHH:mm:ss' : 'YYYY-MM-DDTHH:mm';
  const textOf = (day: Dayjs | null) => (day && day.isValid() ? day.format(wire) : '');
  const [picked, setPicked] = useState<Dayjs | null>(() => parse(value));
  // the last value from outside: a different one (a reset, the URL) replaces what is typed, unless it
  // is what the field holds already (a parent that answers later, as the URL does, must not re-set it mid-typing)
  const [outside, setOutside] = useState(value);
  // what was last reported (or set from outside), so a blur or a second accept does not report it again
  const [reported, setReported] = useState(value);
  if (value !== outside) {
    setOutside(value);
    setReported(value);
    if (value !== textOf(picked)) setPicked(parse(value));
  }
  const report = (next: Dayjs | null) => {
    const text = textOf(next);
    if (text === reported) return;
    setReported(text);
    onChange(text);
  };
  return (
    <PickerLocalization>
      <DateTimePicker
        label={label}
        name={name}
        value={picked}
        format={`${DATE_FORMAT} ${withSeconds ? TIME_WITH_SECONDS_FORMAT : TIME_FORMAT}`}
        ampm={false}
        views={withSeconds ? ['year', 'month', 'day', 'hours', 'minutes', 'seconds'] : ['year', 'month', 'day', 'hours', 'minutes']}
        disablePast={disablePast}
        onChange={(next) => {
          setPicked(next);
          if (!commitOnBlur) report(next);
        }}
        onAccept={(next) => report(next)}
        slotProps={{
          field: { clearable: true },
          textField: {
            size: 'small',
            name,
            fullWidth,
            required,
            error: Boolean(errors?.length) || error,
            helperText: errors?.length ? fieldMessages(errors) : helperText,
            sx,
            ...(commitOnBlur
              ? {
                  onBlur: () => report(picked),
                  onKeyDown: (event: KeyboardEvent) => {
                    if (event.key === 'Enter') report(picked);
                  },
                }
              : {}),
          },
        }}
      />
    </PickerLocalization>
  );
}
