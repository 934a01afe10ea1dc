import Box from '@mui/material/Box';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { TEXT_MAX } from '@rollcall/contracts';
import { fieldMessages } from './field-messages';

type CountedTextFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'error' | 'helperText'> & {
  value: string;
  onValueChange: (value: string) => void;
  /** Server messages for this field; shown under it in place of the hint. */
  errors?: string[];
  hint?: string;
  max?: number;
};

/** A text field with the spec's character counter ('n/255') and its server errors underneath. */
export function CountedTextField({ value, onValueChange, errors, hint, max = TEXT_MAX, slotProps, ...rest }: CountedTextFieldProps) {
  const message = errors?.length ? fieldMessages(errors) : hint;
  return (
    <TextField
      {...rest}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      error={Boolean(errors?.length)}
      helperText={
        <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
          <Box component="span">{message}</Box>
          <Box component="span" sx={{ flexShrink: 0, color: 'text.secondary' }}>
            {value.length}/{max}
          </Box>
        </Box>
      }
      slotProps={{ ...slotProps, htmlInput: { maxLength: max, ...(slotProps?.htmlInput as object | undefined) } }}
    />
  );
}
