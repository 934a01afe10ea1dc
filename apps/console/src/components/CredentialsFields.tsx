import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { fieldMessages } from './field-messages';

export interface Credentials {
  username: string;
  password: string;
}

/**
 * Username and password as every sign-in form asks for them (the console's own and the single
 * sign-on page): the browser's autofill names, 255 at most, the server's errors under each field.
 */
export function CredentialsFields({ value, onChange, errors }: { value: Credentials; onChange: (value: Credentials) => void; errors: Partial<Record<keyof Credentials, string[]>> }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('signIn.username')}
        name="username"
        autoComplete="username"
        autoFocus
        required
        value={value.username}
        onChange={(event) => onChange({ ...value, username: event.target.value })}
        error={Boolean(errors.username)}
        helperText={fieldMessages(errors.username)}
        slotProps={{ htmlInput: { maxLength: 255 } }}
      />
      <TextField
        label={t('signIn.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={value.password}
        onChange={(event) => onChange({ ...value, password: event.target.value })}
        error={Boolean(errors.password)}
        helperText={fieldMessages(errors.password)}
        slotProps={{ htmlInput: { maxLength: 255 } }}
      />
    </>
  );
}
