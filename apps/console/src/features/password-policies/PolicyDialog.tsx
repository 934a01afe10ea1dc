import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TPolicy, TPolicyInput } from '@rollcall/contracts';
import { CountedTextField } from '../../components/CountedTextField';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';

/** Fields whose server errors are shown under the field (spec section 5). */
const FIELD_NAMES = ['title', 'description', 'history', 'min_length', 'min_strength', 'lockout', 'lockout_duration', 'password_age', 'second_factor', 'passkey_sign_in'] as const;
type FieldName = (typeof FIELD_NAMES)[number];

const STRENGTHS = [0, 1, 2, 3, 4] as const;
/** who must sign in with a second factor (docs/adr/0025) */
const SECOND_FACTOR_RULES = ['off', 'all', 'administrators'] as const;
type SecondFactorRule = (typeof SECOND_FACTOR_RULES)[number];

/** Numbers stay text while typed; the server says what is wrong with them. */
interface FormState {
  title: string;
  description: string;
  aging: boolean;
  max_age: string;
  historyOn: boolean;
  history: string;
  min_length: string;
  min_strength: number;
  lockout: string;
  lockout_duration: string;
  second_factor: SecondFactorRule;
  /** accounts may sign in with a passkey alone (docs/adr/0029) */
  passkey_sign_in: boolean;
}

/** Spec section 9: history 4 (off), min length 6, strength 0, lockout 4 for 3600 s, age 90 days (off). */
const DEFAULTS: FormState = {
  title: '',
  description: '',
  aging: false,
  max_age: '90',
  historyOn: false,
  history: '4',
  min_length: '6',
  min_strength: 0,
  lockout: '4',
  lockout_duration: '3600',
  second_factor: 'off',
  passkey_sign_in: false,
};

/** Edit mode: a switch is on only when the stored value is above 0. */
function fromPolicy(policy: TPolicy): FormState {
  const aging = (policy.max_age ?? 0) > 0;
  const historyOn = (policy.history ?? 0) > 0;
  return {
    title: policy.title,
    description: policy.description,
    aging,
    max_age: aging ? String(policy.max_age) : DEFAULTS.max_age,
    historyOn,
    history: historyOn ? String(policy.history) : DEFAULTS.history,
    min_length: String(policy.min_length),
    min_strength: policy.min_strength,
    lockout: String(policy.lockout),
    lockout_duration: String(policy.lockout_duration),
    second_factor: policy.second_factor,
    passkey_sign_in: policy.passkey_sign_in,
  };
}

/** An empty field is sent as null: the server names it as missing. */
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/** history and max_age are sent only while their switches are on. */
function toInput(form: FormState): TPolicyInput {
  return {
    title: form.title,
    description: form.description,
    min_length: numberOrNull(form.min_length) as number,
    min_strength: form.min_strength,
    lockout: numberOrNull(form.lockout) as number,
    lockout_duration: numberOrNull(form.lockout_duration) as number,
    ...(form.historyOn ? { history: numberOrNull(form.history) } : {}),
    ...(form.aging ? { max_age: numberOrNull(form.max_age) } : {}),
    second_factor: form.second_factor,
    passkey_sign_in: form.passkey_sign_in,
  };
}

interface PolicyDialogProps {
  open: boolean;
  /** null: 'Add new policy'; a policy: 'Edit policy' */
  policy: TPolicy | null;
  onClose: () => void;
}

/** 'Add new policy' / 'Edit policy'. Closing unmounts the form, so it reopens with the defaults. */
export function PolicyDialog({ open, policy, onClose }: PolicyDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      <PolicyForm key={policy?.id ?? 'new'} titleId={titleId} policy={policy} onClose={onClose} />
    </Dialog>
  );
}

function PolicyForm({ titleId, policy, onClose }: { titleId: string; policy: TPolicy | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const formId = useId();
  const [form, setForm] = useState<FormState>(() => (policy ? fromPolicy(policy) : DEFAULTS));
  const { errors, clearErrors, showServerErrors: onError } = useFieldErrors(FIELD_NAMES);
  const create = trpc.policies.create.useMutation();
  const update = trpc.policies.update.useMutation();
  const saving = create.isPending || update.isPending;

  const set =
    <K extends keyof FormState>(key: K, errorField: FieldName) =>
    (value: FormState[K]) => {
      setForm((current) => ({ ...current, [key]: value }));
      clearErrors(errorField);
    };


  const onSaved = (message: string) => {
    notify(message, 'success');
    void utils.policies.list.invalidate();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const input = toInput(form);
    if (policy) update.mutate({ id: policy.id, policy: input }, { onSuccess: () => onSaved(t('passwordPolicies.updated')), onError });
    else create.mutate(input, { onSuccess: () => onSaved(t('passwordPolicies.created')), onError });
  };

  const numberField = (key: 'min_length' | 'lockout' | 'lockout_duration' | 'history' | 'max_age', errorField: FieldName, label: string, hint?: string) => (
    <TextField
      type="number"
      label={label}
      name={key}
      value={form[key]}
      onChange={(event) => set(key, errorField)(event.target.value)}
      error={Boolean(errors[errorField]?.length)}
      helperText={errors[errorField]?.join(' ') ?? hint}
      slotProps={{ htmlInput: { inputMode: 'numeric', step: 1 } }}
    />
  );

  return (
    <>
      <DialogTitle id={titleId}>{policy ? t('passwordPolicies.dialog.editTitle') : t('passwordPolicies.dialog.addTitle')}</DialogTitle>
      <DialogContent dividers>
        <Box component="form" id={formId} noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <CountedTextField
            label={t('passwordPolicies.dialog.title')}
            name="title"
            required
            autoFocus
            autoComplete="off"
            value={form.title}
            onValueChange={set('title', 'title')}
            errors={errors.title}
            sx={{ gridColumn: '1 / -1' }}
          />
          <CountedTextField
            label={t('passwordPolicies.dialog.description')}
            name="description"
            multiline
            minRows={2}
            value={form.description}
            onValueChange={set('description', 'description')}
            errors={errors.description}
            sx={{ gridColumn: '1 / -1' }}
          />

          <Box sx={{ display: 'grid', gap: 1, alignContent: 'start' }}>
            <FormControlLabel
              label={t('passwordPolicies.dialog.aging')}
              control={<Switch checked={form.aging} onChange={(event) => set('aging', 'password_age')(event.target.checked)} />}
            />
            {form.aging && numberField('max_age', 'password_age', t('passwordPolicies.dialog.age'))}
          </Box>
          <Box sx={{ display: 'grid', gap: 1, alignContent: 'start' }}>
            <FormControlLabel
              label={t('passwordPolicies.dialog.historyOn')}
              control={<Switch checked={form.historyOn} onChange={(event) => set('historyOn', 'history')(event.target.checked)} />}
            />
            {form.historyOn && numberField('history', 'history', t('passwordPolicies.dialog.history'), t('passwordPolicies.dialog.historyHint'))}
          </Box>

          {numberField('min_length', 'min_length', t('passwordPolicies.dialog.minLength'))}
          <TextField
            select
            label={t('passwordPolicies.dialog.minStrength')}
            name="min_strength"
            value={form.min_strength}
            onChange={(event) => set('min_strength', 'min_strength')(Number(event.target.value))}
            error={Boolean(errors.min_strength?.length)}
            helperText={errors.min_strength?.join(' ') ?? t('passwordPolicies.dialog.minStrengthHint')}
          >
            {STRENGTHS.map((score) => (
              <MenuItem key={score} value={score}>
                {t('passwordPolicies.strengthOption', { score, label: t(`passwordPolicies.strength.${score}`) })}
              </MenuItem>
            ))}
          </TextField>
          {numberField('lockout', 'lockout', t('passwordPolicies.dialog.lockout'), t('passwordPolicies.dialog.lockoutHint'))}
          {numberField('lockout_duration', 'lockout_duration', t('passwordPolicies.dialog.lockoutDuration'))}
          <TextField
            select
            label={t('secondFactors.policy.label')}
            name="second_factor"
            value={form.second_factor}
            onChange={(event) => set('second_factor', 'second_factor')(event.target.value as SecondFactorRule)}
            error={Boolean(errors.second_factor?.length)}
            helperText={errors.second_factor?.join(' ') ?? t('secondFactors.policy.hint')}
          >
            {SECOND_FACTOR_RULES.map((rule) => (
              <MenuItem key={rule} value={rule}>
                {t(`secondFactors.policy.${rule}`)}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ display: 'grid', alignContent: 'start' }}>
            <FormControlLabel
              label={t('secondFactors.policy.passkeySignIn')}
              control={<Switch name="passkey_sign_in" checked={form.passkey_sign_in} onChange={(event) => set('passkey_sign_in', 'passkey_sign_in')(event.target.checked)} />}
            />
            <Typography variant="caption" color={errors.passkey_sign_in?.length ? 'error' : 'text.secondary'} sx={{ mx: 1.75 }}>
              {errors.passkey_sign_in?.join(' ') ?? t('secondFactors.policy.passkeySignInHint')}
            </Typography>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1 }}>
        {saving && (
          <Typography role="status" variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
            {t('passwordPolicies.dialog.saving')}
          </Typography>
        )}
        <Button onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" form={formId} variant="contained" loading={saving}>
          {policy ? t('passwordPolicies.dialog.update') : t('passwordPolicies.dialog.create')}
        </Button>
      </DialogActions>
    </>
  );
}
