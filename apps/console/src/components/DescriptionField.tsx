import TextField from '@mui/material/TextField';
import { fieldMessages } from './field-messages';

interface DescriptionFieldProps {
  label: string;
  value: string;
  /** each change; callers also clear the field's server errors here */
  onValueChange: (value: string) => void;
  errors?: string[];
  hint?: string;
  maxLength?: number;
  minRows?: number;
}

/** The free-text description of organizations, teams, roles and permissions: a textarea whose server errors replace its hint. */
export function DescriptionField({ label, value, onValueChange, errors, hint, maxLength, minRows = 3 }: DescriptionFieldProps) {
  return (
    <TextField
      label={label}
      name="description"
      multiline
      minRows={minRows}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      error={Boolean(errors?.length)}
      helperText={errors?.length ? fieldMessages(errors) : hint}
      slotProps={maxLength ? { htmlInput: { maxLength } } : undefined}
    />
  );
}
