import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { passwordScore } from './password-strength';

const COLOURS = ['error', 'error', 'warning', 'success', 'success'] as const;

/**
 * The new password's estimated strength (zxcvbn score 0-4), as the API's policy check counts it.
 * An estimate only: the account's policy decides on the server, and says under the field what is
 * missing. Nothing is shown for an empty password or while the dictionaries load.
 */
export function PasswordStrengthMeter({ password, userInputs }: { password: string; userInputs?: readonly string[] }) {
  const { t } = useTranslation();
  const [scored, setScored] = useState<{ password: string; score: number } | null>(null);
  // by value: a new array of the same words is no reason to score again
  const inputs = (userInputs ?? []).join('\u0000');
  useEffect(() => {
    if (!password) return;
    let current = true;
    passwordScore(password, inputs ? inputs.split('\u0000') : []).then(
      (score) => current && setScored({ password, score }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [password, inputs]);
  // a score of an earlier text is not shown as this one's
  if (!password || scored?.password !== password) return null;
  const { score } = scored;
  const label = t(`passwordForm.strength.${score}`);
  return (
    <Box data-testid="password-strength" sx={{ display: 'grid', gap: 0.5 }}>
      <LinearProgress variant="determinate" value={(score + 1) * 20} color={COLOURS[score]} aria-label={t('passwordForm.strength.label')} aria-valuetext={label} />
      <Typography variant="caption" color="text.secondary" aria-live="polite">
        {t('passwordForm.strength.caption', { strength: label, score })}
      </Typography>
    </Box>
  );
}
