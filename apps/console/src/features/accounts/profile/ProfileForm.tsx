import { useState, type FormEvent } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { TAccount, TUpdateAccountProfileInput } from '@rollcall/contracts';
import { splitFieldErrors } from '../../../api/api-error';
import { CountedTextField } from '../../../components/CountedTextField';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { formatDate } from '../../../lib/format-date';
import { trpc } from '../../../trpc';

/** Fields whose server errors are shown under the field (spec section 5). */
const FIELD_NAMES = ['first_name', 'middle_name', 'nickname', 'birth_date', 'email', 'profile', 'last_name', 'gender', 'time_zone', 'locale', 'website'] as const;
type FieldName = (typeof FIELD_NAMES)[number];
type FormState = Record<FieldName, string>;
type FieldErrors = Partial<Record<FieldName, string[]>>;

function fromAccount(account: TAccount): FormState {
  const a = account.additional;
  return {
    first_name: account.first_name,
    middle_name: a.middle_name ?? '',
    nickname: a.nickname ?? '',
    birth_date: a.birth_date ?? '',
    email: account.email,
    profile: a.profile ?? '',
    last_name: account.last_name,
    gender: a.gender ?? '',
    time_zone: a.time_zone ?? '',
    locale: a.locale ?? '',
    website: a.website ?? '',
  };
}

/** Empty text is 'not set'; the contact lists are not part of the form and keep their entries. */
const toInput = (form: FormState): TUpdateAccountProfileInput => ({ ...form });

/** Spec tab 1: no client-side checks; the server's errors appear under each field. */
export function ProfileForm({ account }: { account: TAccount }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const timeZones = trpc.server.timeZones.useQuery(undefined, { staleTime: Infinity });
  const update = trpc.accounts.update.useMutation();
  const [form, setForm] = useState<FormState>(() => fromAccount(account));
  const [errors, setErrors] = useState<FieldErrors>({});

  const set = (name: FieldName) => (value: string) => {
    setForm((current) => ({ ...current, [name]: value }));
    setErrors((current) => {
      if (!current[name]) return current;
      const next = { ...current };
      delete next[name];
      return next;
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    update.mutate(
      { id: account.id, profile: toInput(form) },
      {
        onSuccess: (saved) => {
          setErrors({});
          notify(t('accounts.profile.saved'), 'success');
          utils.accounts.byId.setData({ id: account.id }, saved);
          void utils.accounts.list.invalidate();
          void utils.auth.me.invalidate();
        },
        onError: (error) => {
          const { fields, notice } = splitFieldErrors(error, FIELD_NAMES, t);
          setErrors(fields);
          if (notice) notify(notice, 'error');
        },
      },
    );
  };

  const text = (name: FieldName, label: string, extra: { multiline?: boolean; type?: string; counter?: boolean } = {}) =>
    extra.counter === false ? (
      <TextField
        label={label}
        name={name}
        type={extra.type}
        value={form[name]}
        onChange={(event) => set(name)(event.target.value)}
        error={Boolean(errors[name]?.length)}
        helperText={errors[name]?.join(' ') ?? (extra.type === 'date' ? formatDate(form[name]) || undefined : undefined)}
        slotProps={extra.type === 'date' ? { inputLabel: { shrink: true } } : undefined}
      />
    ) : (
      <CountedTextField label={label} name={name} value={form[name]} onValueChange={set(name)} errors={errors[name]} multiline={extra.multiline} />
    );

  return (
    <Card variant="outlined">
      <CardContent>
        <Box component="form" noValidate onSubmit={submit} aria-label={t('accounts.profile.formLabel')} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <Box sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
            {text('first_name', t('accounts.profile.firstName'))}
            {text('middle_name', t('accounts.profile.middleName'))}
            {text('nickname', t('accounts.profile.nickname'))}
            {text('birth_date', t('accounts.profile.birthDate'), { type: 'date', counter: false })}
            {text('email', t('accounts.profile.email'))}
            {text('profile', t('accounts.profile.profile'), { multiline: true })}
          </Box>
          <Box sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
            {text('last_name', t('accounts.profile.lastName'))}
            <TextField
              select
              label={t('accounts.profile.gender')}
              name="gender"
              value={form.gender}
              onChange={(event) => set('gender')(event.target.value)}
              error={Boolean(errors.gender?.length)}
              helperText={errors.gender?.join(' ')}
            >
              <MenuItem value="">{t('accounts.profile.notSet')}</MenuItem>
              <MenuItem value="male">{t('accounts.profile.genderMale')}</MenuItem>
              <MenuItem value="female">{t('accounts.profile.genderFemale')}</MenuItem>
            </TextField>
            <Autocomplete
              options={timeZones.data ?? []}
              loading={timeZones.isLoading}
              value={form.time_zone || null}
              onChange={(_event, value) => set('time_zone')(value ?? '')}
              noOptionsText={t('common.noOptions')}
              loadingText={t('common.loading')}
              renderInput={(params) => (
                <TextField {...params} label={t('accounts.profile.timeZone')} name="time_zone" error={Boolean(errors.time_zone?.length)} helperText={errors.time_zone?.join(' ')} />
              )}
            />
            <TextField
              select
              label={t('accounts.profile.locale')}
              name="locale"
              value={form.locale}
              onChange={(event) => set('locale')(event.target.value)}
              error={Boolean(errors.locale?.length)}
              helperText={errors.locale?.join(' ')}
            >
              <MenuItem value="">{t('accounts.profile.notSet')}</MenuItem>
              <MenuItem value="en">{t('accounts.profile.localeEn')}</MenuItem>
              <MenuItem value="de">{t('accounts.profile.localeDe')}</MenuItem>
            </TextField>
            {text('website', t('accounts.profile.website'))}
          </Box>
          <Box sx={{ gridColumn: '1 / -1', display: 'flex', justifyContent: 'flex-end' }}>
            <Button type="submit" variant="contained" loading={update.isPending}>
              {t('accounts.profile.save')}
            </Button>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
