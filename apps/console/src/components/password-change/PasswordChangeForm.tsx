import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { TEXT_MAX } from '@rollcall/contracts';
import { useTranslation } from 'react-i18next';
import { describeError, getApiError } from '../../api/api-error';
import { CountedTextField } from '../CountedTextField';
import { fieldMessages } from '../field-messages';
import { translateFieldErrors } from '../use-field-errors';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

export interface PasswordChange {
  current_password: string;
  new_password: string;
}

interface PasswordChangeFormProps {
  /** the change itself (auth.changePassword or me.changePassword: the same command); resolves on success */
  onSubmit: (change: PasswordChange) => Promise<unknown>;
  pending: boolean;
  /** the last attempt's error, as the mutation holds it */
  error: unknown;
  /** what an attacker may know of the person (username, names): the meter scores them low, as the policy does */
  userInputs?: readonly string[];
  /** the submit button's size: 'large' where the form is the page */
  size?: 'medium' | 'large';
}

/**
 * The one own-password change form: the sign-in's forced change (/change-password) and the Security
 * tab of the page of one's own. Current and new password, the new one's strength as the policy
 * counts it (zxcvbn), the policy's and the current password's errors under their fields in the
 * console's language (by the API's rule codes), each rule on its own line; anything else above the
 * form. The fields are emptied once the change succeeded.
 */
export function PasswordChangeForm({ onSubmit, pending, error, userInputs, size = 'medium' }: PasswordChangeFormProps) {
  const { t, i18n } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const fields = getApiError(translateFieldErrors(error, t, i18n.resolvedLanguage ?? i18n.language))?.fields ?? {};
  const placed = Boolean(fields.current_password?.length || fields.new_password?.length);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ current_password: current, new_password: next }).then(
      () => {
        setCurrent('');
        setNext('');
      },
      // the mutation holds the error: it is shown below
      () => undefined,
    );
  };

  return (
    <>
      {error && !placed ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {describeError(error, t)}
        </Alert>
      ) : null}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
        <TextField
          label={t('passwordForm.current')}
          name="current_password"
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          error={Boolean(fields.current_password?.length)}
          helperText={fieldMessages(fields.current_password)}
          slotProps={{ htmlInput: { maxLength: TEXT_MAX } }}
        />
        <Box sx={{ display: 'grid', gap: 1 }}>
          <CountedTextField
            label={t('passwordForm.new')}
            name="new_password"
            type="password"
            autoComplete="new-password"
            required
            value={next}
            onValueChange={setNext}
            errors={fields.new_password}
            hint={t('passwordForm.newHint')}
          />
          <PasswordStrengthMeter password={next} userInputs={userInputs} />
        </Box>
        <Box>
          <Button type="submit" variant="contained" size={size} fullWidth={size === 'large'} loading={pending} disabled={!current || !next}>
            {t('passwordForm.submit')}
          </Button>
        </Box>
      </Box>
    </>
  );
}
