import { useId, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import type { TCreateAccountInput, TOrganizationSearchItem } from '@rollcall/contracts';
import { useNavigate } from 'react-router-dom';
import { toAccount } from '../../paths';
import { describeError } from '../../api/api-error';
import { CountedTextField } from '../../components/CountedTextField';
import { DateField } from '../../components/DateField';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';
import { useGrants } from '../../auth/use-grants';
import { OrganizationPicker } from '../../components/organizations/OrganizationPicker';
import { fieldMessages } from '../../components/field-messages';
import { policyTitle } from '../../components/policy-texts';

/** Fields whose server errors are shown under the field (spec section 5). */
const FIELD_NAMES = ['first_name', 'last_name', 'email', 'username', 'password', 'policy_id', 'expires_at', 'organization'] as const;

interface FormState {
  first_name: string;
  last_name: string;
  email: string;
  username: string;
  password: string;
  policy_id: string;
  expires_at: string;
  no_password: boolean;
  activation: boolean;
  policy: boolean;
  expiry: boolean;
  /** asked only of an organization administrator: accounts it creates belong to one of its organizations */
  organization: TOrganizationSearchItem | null;
}

const EMPTY_FORM: FormState = {
  first_name: '',
  last_name: '',
  email: '',
  username: '',
  password: '',
  policy_id: '',
  expires_at: '',
  no_password: false,
  activation: false,
  policy: false,
  expiry: false,
  organization: null,
};

function toInput(form: FormState): TCreateAccountInput {
  const enforcePolicy = form.policy && !form.no_password;
  return {
    first_name: form.first_name,
    last_name: form.last_name,
    email: form.email,
    username: form.username,
    password: form.no_password ? null : form.password,
    policy_id: enforcePolicy && form.policy_id ? form.policy_id : null,
    expires_at: form.expiry && form.expires_at ? form.expires_at : null,
    no_password: form.no_password,
    activation: form.activation,
    policy: enforcePolicy,
    expiry: form.expiry,
    ...(form.organization ? { organization: form.organization.id } : {}),
  };
}

interface CreateAccountDialogProps {
  open: boolean;
  onClose: () => void;
  /** the organization the account joins when the dialog is opened from one: then no picker (spec) */
  organization?: TOrganizationSearchItem | null;
}

/** 'Create new account'. The form starts empty each time the dialog opens. */
export function CreateAccountDialog({ open, onClose, organization = null }: CreateAccountDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {/* Modal unmounts its content after closing, so each opening starts with an empty form. */}
      <CreateAccountForm titleId={titleId} onClose={onClose} preset={organization} />
    </Dialog>
  );
}

function CreateAccountForm({ titleId, onClose, preset }: { titleId: string; onClose: () => void; preset: TOrganizationSearchItem | null }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const hintIds = { noPassword: useId(), activation: useId(), expiry: useId() };
  const [form, setForm] = useState<FormState>({ ...EMPTY_FORM, organization: preset });
  const navigate = useNavigate();
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const grants = useGrants();
  /** The policy switch's value before 'without password' turned it off, restored after. */
  const policyBeforeNoPassword = useRef(false);

  const create = trpc.accounts.create.useMutation();
  const policies = trpc.policies.list.useQuery(undefined, { enabled: form.policy && !form.no_password, staleTime: 60_000 });

  const setText = (name: 'first_name' | 'last_name' | 'email' | 'username' | 'password' | 'policy_id' | 'expires_at') => (value: string) => {
    setForm((current) => ({ ...current, [name]: value }));
    clearErrors(name);
  };

  const setNoPassword = (on: boolean) => {
    setForm((current) => {
      if (on) {
        policyBeforeNoPassword.current = current.policy;
        return { ...current, no_password: true, policy: false };
      }
      return { ...current, no_password: false, policy: policyBeforeNoPassword.current };
    });
    if (on) clearErrors('password', 'policy_id');
  };

  const setPolicy = (on: boolean) => {
    setForm((current) => ({ ...current, policy: on }));
    if (!on) clearErrors('policy_id');
  };

  const setExpiry = (on: boolean) => {
    setForm((current) => ({ ...current, expiry: on, expires_at: on ? current.expires_at : '' }));
    if (!on) clearErrors('expires_at');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(toInput(form), {
      onSuccess: (created) => {
        notify(t('accounts.create.success'), 'success');
        void utils.accounts.list.invalidate();
        onClose();
        // on to the new account, as Keycloak and ZITADEL do: its roles, cards and status come next
        void navigate(toAccount(created.id));
      },
      onError: showServerErrors,
    });
  };

  const policyEnforced = form.policy && !form.no_password;
  // the spec's picker, shown when no organization is preset: an organization administrator must
  // choose one of its own, a super administrator may leave it empty
  const mayChooseNone = grants.mayEverywhere('accounts:write');
  const asksOrganization = !preset;

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('accounts.create.title')} onSubmit={submit} onCancel={onClose} submitLabel={t('accounts.create.submit')} busy={create.isPending} formSx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {asksOrganization && (
          <Box sx={{ gridColumn: '1 / -1' }}>
            <OrganizationPicker
              label={t('accounts.create.organization')}
              name="organization"
              required={!mayChooseNone}
              value={form.organization}
              onChange={(value) => {
                setForm((current) => ({ ...current, organization: value }));
                clearErrors('organization');
              }}
              errors={errors.organization}
              hint={mayChooseNone ? t('accounts.create.organizationOptionalHint') : t('accounts.create.organizationHint')}
            />
          </Box>
        )}
        <CountedTextField
          label={t('accounts.create.firstName')}
          name="first_name"
          required
          autoFocus
          autoComplete="off"
          value={form.first_name}
          onValueChange={setText('first_name')}
          errors={errors.first_name}
        />
        <CountedTextField
          label={t('accounts.create.lastName')}
          name="last_name"
          required
          autoComplete="off"
          value={form.last_name}
          onValueChange={setText('last_name')}
          errors={errors.last_name}
        />
        <CountedTextField
          label={t('accounts.create.email')}
          name="email"
          type="email"
          required
          autoComplete="off"
          value={form.email}
          onValueChange={setText('email')}
          errors={errors.email}
          sx={{ gridColumn: '1 / -1' }}
        />
        <CountedTextField
          label={t('accounts.create.username')}
          name="username"
          required
          autoComplete="off"
          value={form.username}
          onValueChange={setText('username')}
          errors={errors.username}
          sx={{ gridColumn: '1 / -1' }}
        />
        {!form.no_password && (
          <CountedTextField
            label={t('accounts.create.password')}
            name="password"
            type="password"
            required
            autoComplete="new-password"
            value={form.password}
            onValueChange={setText('password')}
            errors={errors.password}
            sx={{ gridColumn: '1 / -1' }}
          />
        )}

        <Box sx={{ gridColumn: '1 / -1', display: 'grid', gap: 1 }}>
          <SwitchWithHint
            label={t('accounts.create.noPassword')}
            hint={t('accounts.create.noPasswordHint')}
            hintId={hintIds.noPassword}
            checked={form.no_password}
            onChange={setNoPassword}
          />
          <SwitchWithHint
            label={t('accounts.create.activation')}
            hint={t(form.no_password ? 'accounts.create.activationHint' : 'accounts.create.welcomeHint')}
            hintId={hintIds.activation}
            checked={form.activation}
            onChange={(on) => setForm((current) => ({ ...current, activation: on }))}
          />
          {grants.may('policies:read') && <SwitchWithHint label={t('accounts.create.policy')} checked={policyEnforced} disabled={form.no_password} onChange={setPolicy} />}
          {policyEnforced && (
            <TextField
              select
              label={t('accounts.create.policyPicker')}
              name="policy_id"
              value={form.policy_id}
              onChange={(event) => setText('policy_id')(event.target.value)}
              error={Boolean(errors.policy_id?.length) || policies.isError}
              helperText={fieldMessages(errors.policy_id) ?? (policies.isError ? describeError(policies.error, t) : undefined)}
            >
              {policies.isLoading && (
                <MenuItem value="" disabled>
                  {t('common.loading')}
                </MenuItem>
              )}
              {policies.data?.length === 0 && (
                <MenuItem value="" disabled>
                  {t('accounts.create.noPolicies')}
                </MenuItem>
              )}
              {policies.data?.map((policy) => (
                <MenuItem key={policy.id} value={String(policy.id)}>
                  {policyTitle(policy, t)}
                </MenuItem>
              ))}
            </TextField>
          )}
          <SwitchWithHint
            label={t('accounts.create.expiry')}
            hint={t('accounts.create.expiryHint')}
            hintId={hintIds.expiry}
            checked={form.expiry}
            onChange={setExpiry}
          />
          {form.expiry && (
            <DateField label={t('accounts.create.expiresAt')} name="expires_at" value={form.expires_at} onChange={setText('expires_at')} errors={errors.expires_at} disablePast />
          )}
        </Box>
      </FormDialogLayout>
    </>
  );
}

interface SwitchWithHintProps {
  label: string;
  hint?: string;
  hintId?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}

function SwitchWithHint({ label, hint, hintId, checked, disabled, onChange }: SwitchWithHintProps) {
  return (
    <Box>
      <FormControlLabel
        label={label}
        disabled={disabled}
        control={
          <Switch
            checked={checked}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: hint && hintId ? { 'aria-describedby': hintId } : undefined }}
          />
        }
      />
      {hint && (
        <FormHelperText id={hintId} sx={{ mt: -0.5, ml: '47px' }}>
          {hint}
        </FormHelperText>
      )}
    </Box>
  );
}
