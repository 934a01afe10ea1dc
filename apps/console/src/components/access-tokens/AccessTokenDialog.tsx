import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import type { SystemPermission, TAccessToken, TAccountSearchItem, TCreatedAccessToken } from '@rollcall/contracts';
import { ZIpRestriction } from '@rollcall/contracts';
import { CountedTextField } from '../CountedTextField';
import { LoadingState } from '../LoadingState';
import { useSnackbar } from '../snackbar/snackbar-context';
import { useFieldErrors } from '../use-field-errors';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { trpc } from '../../trpc';
import { fieldMessages } from '../field-messages';
import { DateTimeField } from '../DateTimeField';
import { browserLocalInstant, browserTimeZone, withZone, zoneLabel } from '../../lib/zone-label';

/** Spec section 5: token create and update errors are shown on title and permissions; ours also on restrictions, expiry and account. */
const FIELD_NAMES = ['title', 'permissions', 'restrictions', 'expires_at', 'account_id'] as const;
type FieldName = (typeof FIELD_NAMES)[number];

/** a new token expires in 30 days unless the admin chooses 'forever' */
const DEFAULT_VALIDITY_DAYS = 30;

interface FormState {
  title: string;
  forever: boolean;
  /** datetime-local text in the browser's zone */
  expires: string;
  permissions: SystemPermission[];
  restrictions: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const toLocalInput = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

const emptyForm = (): FormState => ({ title: '', forever: false, expires: toLocalInput(new Date(Date.now() + DEFAULT_VALIDITY_DAYS * 86_400_000)), permissions: [], restrictions: [] });
const fromToken = (token: TAccessToken): FormState => ({
  title: token.token_title,
  forever: token.expires_at === null,
  expires: token.expires_at ? toLocalInput(new Date(token.expires_at)) : toLocalInput(new Date(Date.now() + DEFAULT_VALIDITY_DAYS * 86_400_000)),
  // the server answers slugs of the catalogue
  permissions: token.permissions as SystemPermission[],
  restrictions: token.restrictions,
});

function toGrant(form: FormState) {
  const expires = new Date(form.expires);
  return {
    title: form.title,
    forever: form.forever,
    // an unreadable date goes as text: the server names the field
    expires_at: form.forever ? null : Number.isNaN(expires.getTime()) ? form.expires : expires.toISOString(),
    permissions: form.permissions,
    restrictions: form.restrictions,
  };
}

interface AccessTokenDialogProps {
  open: boolean;
  /** null: 'Create new access token'; a token: 'Edit access token' */
  token: TAccessToken | null;
  /** the account tab's account; the /access-tokens screen lets the admin pick one */
  accountId?: string;
  onClose: () => void;
}

/** Up to 800px wide (spec). Closing unmounts the form, so it reopens cleared; an edit reloads the token first. */
export function AccessTokenDialog({ open, token, accountId, onClose }: AccessTokenDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth={false} fullScreen={fullScreen} aria-labelledby={titleId} slotProps={{ paper: { sx: { maxWidth: 800 } } }}>
      {open ? token ? <EditToken key={token.id} titleId={titleId} tokenId={token.id} onClose={onClose} /> : <TokenForm titleId={titleId} token={null} accountId={accountId} onClose={onClose} /> : null}
    </Dialog>
  );
}

/** 'When it becomes visible it is reloaded' (spec): the edit form starts from the server's current token. */
function EditToken({ titleId, tokenId, onClose }: { titleId: string; tokenId: string; onClose: () => void }) {
  const current = trpc.tokens.byId.useQuery({ id: tokenId }, { staleTime: 0, gcTime: 0 });
  if (!current.data) {
    return (
      <DialogContent>
        <LoadingState />
      </DialogContent>
    );
  }
  return <TokenForm titleId={titleId} token={current.data} onClose={onClose} />;
}

function TokenForm({ titleId, token, accountId, onClose }: { titleId: string; token: TAccessToken | null; accountId?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const formId = useId();
  const [form, setForm] = useState<FormState>(() => (token ? fromToken(token) : emptyForm()));
  const { errors, clearErrors, showServerErrors: onError } = useFieldErrors(FIELD_NAMES);
  const [owner, setOwner] = useState<TAccountSearchItem | null>(null);
  const [created, setCreated] = useState<TCreatedAccessToken | null>(null);
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000, enabled: !token && !accountId });
  const permissions = trpc.tokens.systemPermissions.useQuery(undefined, { staleTime: 5 * 60_000 });
  const create = trpc.tokens.create.useMutation();
  const update = trpc.tokens.update.useMutation();
  const saving = create.isPending || update.isPending;

  const set =
    <K extends keyof FormState>(key: K, errorField: FieldName) =>
    (value: FormState[K]) => {
      setForm((current) => ({ ...current, [key]: value }));
      clearErrors(errorField);
    };


  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token) {
      update.mutate(
        { id: token.id, token: toGrant(form) },
        {
          onSuccess: () => {
            notify(t('accessTokens.updated'), 'success');
            void utils.tokens.list.invalidate();
            onClose();
          },
          onError,
        },
      );
      return;
    }
    const ownerId = accountId ?? owner?.id ?? me.data?.id ?? '';
    create.mutate(
      { ...toGrant(form), account_id: ownerId },
      {
        onSuccess: (result) => {
          notify(t('accessTokens.created'), 'success');
          void utils.tokens.list.invalidate();
          setCreated(result);
        },
        onError,
      },
    );
  };

  if (created) return <CreatedToken titleId={titleId} token={created} onClose={onClose} />;

  const labelOf = (slug: SystemPermission) => permissions.data?.find((permission) => permission.slug === slug)?.value ?? '';
  return (
    <>
      <DialogTitle id={titleId}>{token ? t('accessTokens.editTitle') : t('accessTokens.createTitle')}</DialogTitle>
      <DialogContent>
        <Box component="form" id={formId} onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2.5, pt: 1 }}>
          {!token && !accountId ? <AccountPicker value={owner} fallbackLabel={me.data?.username_readable} errors={errors.account_id} onChange={(value) => { setOwner(value); clearErrors('account_id'); }} /> : null}
          <CountedTextField label={t('accessTokens.fields.title')} value={form.title} onValueChange={set('title', 'title')} errors={errors.title} required autoFocus />
          <Autocomplete
            multiple
            disableCloseOnSelect
            options={permissions.data?.map((permission) => permission.slug) ?? []}
            loading={permissions.isLoading}
            value={form.permissions}
            onChange={(_event, value) => set('permissions', 'permissions')(value)}
            getOptionLabel={(slug: SystemPermission) => slug}
            renderOption={(props, slug) => {
              const { key, ...rest } = props as typeof props & { key: string };
              return (
                <Box component="li" key={key} {...rest} sx={{ display: 'grid !important' }}>
                  <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>{slug}</Typography>
                  <Typography variant="caption" color="text.secondary">{labelOf(slug)}</Typography>
                </Box>
              );
            }}
            slotProps={{ listbox: { sx: { maxHeight: 400 } } }}
            renderInput={(params) => <TextField {...params} label={t('accessTokens.fields.permissions')} error={Boolean(errors.permissions)} helperText={fieldMessages(errors.permissions) ?? t('accessTokens.fields.permissionsHint')} />}
          />
          <RestrictionsField value={form.restrictions} errors={errors.restrictions} onChange={set('restrictions', 'restrictions')} />
          <FormControlLabel control={<Switch checked={form.forever} onChange={(event) => { set('forever', 'expires_at')(event.target.checked); }} />} label={t('accessTokens.fields.forever')} />
          {!form.forever ? (
            <DateTimeField label={withZone(t('accessTokens.fields.expires'), zoneLabel(browserTimeZone(), browserLocalInstant(form.expires)))} name="expires_at" value={form.expires} onChange={set('expires', 'expires_at')} errors={errors.expires_at} helperText={t('accessTokens.fields.expiresHint')} fullWidth />
          ) : null}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" form={formId} variant="contained" loading={saving}>
          {token ? t('accessTokens.save') : t('accessTokens.create')}
        </Button>
      </DialogActions>
    </>
  );
}

/**
 * IP restrictions are typed and confirmed with Enter (spec); each becomes a chip. Each entry is
 * checked as it is confirmed, by the server's own rule (ZIpRestriction): a bad one is not taken and
 * the field says which and why, rather than the whole form failing on submit.
 */
function RestrictionsField({ value, errors, onChange }: { value: string[]; errors?: string[]; onChange: (value: string[]) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const invalid = (entry: string) => !ZIpRestriction.safeParse(entry).success;
  const message = refused ? t('accessTokens.fields.restrictionInvalid', { value: refused }) : null;
  return (
    <Autocomplete
      multiple
      freeSolo
      options={[]}
      value={value}
      inputValue={text}
      onInputChange={(_event, next) => {
        setText(next);
        setRefused(null);
      }}
      onChange={(_event, next) => {
        const entries = [...new Set(next.map((entry) => entry.trim()).filter(Boolean))];
        const bad = entries.find((entry) => !value.includes(entry) && invalid(entry));
        if (bad) {
          // keep what was typed, so it can be corrected in place
          setRefused(bad);
          setText(bad);
          return;
        }
        setRefused(null);
        onChange(entries);
      }}
      renderValue={(chips, getItemProps) =>
        chips.map((chip, index) => <Chip {...getItemProps({ index })} key={chip} label={chip} size="small" color={invalid(chip) ? 'error' : 'default'} sx={{ fontFamily: 'monospace' }} />)
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('accessTokens.fields.restrictions')}
          placeholder={value.length ? '' : '10.0.0.0/8'}
          error={Boolean(errors) || Boolean(message)}
          helperText={message ?? fieldMessages(errors) ?? t('accessTokens.fields.restrictionsHint')}
        />
      )}
    />
  );
}

/** The owner of a new token on the /access-tokens screen: search by username (300 ms), the signed-in admin by default. */
function AccountPicker({ value, fallbackLabel, errors, onChange }: { value: TAccountSearchItem | null; fallbackLabel?: string; errors?: string[]; onChange: (value: TAccountSearchItem | null) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text);
  const found = trpc.accounts.findByUsername.useQuery({ username: search }, { enabled: search.length > 0, staleTime: 30_000 });
  return (
    <Autocomplete
      options={found.data ?? []}
      value={value}
      onChange={(_event, next) => onChange(next)}
      onInputChange={(_event, next) => setText(next)}
      filterOptions={(options) => options}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      getOptionLabel={(option) => `${option.username_readable} (${option.first_name} ${option.last_name})`}
      loading={found.isFetching}
      renderInput={(params) => <TextField {...params} label={t('accessTokens.fields.account')} error={Boolean(errors)} helperText={fieldMessages(errors) ?? t('accessTokens.fields.accountHint', { name: fallbackLabel ?? '' })} />}
    />
  );
}

/** The one time the secret is shown: copy it now, it cannot be read again. */
function CreatedToken({ titleId, token, onClose }: { titleId: string; token: TCreatedAccessToken; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const copy = () =>
    void navigator.clipboard?.writeText(token.token).then(
      () => notify(t('accessTokens.copied'), 'success'),
      () => notify(t('accessTokens.copyFailed'), 'error'),
    );
  return (
    <>
      <DialogTitle id={titleId}>{t('accessTokens.createdTitle', { title: token.token_title })}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('accessTokens.shownOnce')}
        </Alert>
        <Box component="code" aria-label={t('accessTokens.secretLabel')} sx={{ display: 'block', p: 2, bgcolor: 'action.hover', borderRadius: 1, fontFamily: 'monospace', fontSize: 14, wordBreak: 'break-all', whiteSpace: 'pre-wrap', maxWidth: '100ch' }}>
          {token.token}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button startIcon={<ContentCopyIcon />} onClick={copy}>
          {t('accessTokens.copy')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('accessTokens.done')}
        </Button>
      </DialogActions>
    </>
  );
}
