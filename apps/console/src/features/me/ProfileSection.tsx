import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Autocomplete from '@mui/material/Autocomplete';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useTranslation } from 'react-i18next';
import { OWN_PROFILE_FIELDS, type TAccount } from '@rollcall/contracts';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { useFieldErrors } from '../../components/use-field-errors';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';

const PHONE_TYPES = ['mobile', 'work', 'home', 'other'] as const;
interface PhoneRow {
  key: number;
  value: string;
  type: string;
}
let nextKey = 0;
const phoneRow = (value = '', type = 'mobile'): PhoneRow => ({ key: (nextKey += 1), value, type });

/**
 * What an account may change about itself (libs/contracts ZUpdateOwnProfileInput): its names, its
 * telephone numbers, its language and its time zone. The e-mail address, status, roles and
 * organizations are shown read-only: an administrator changes them.
 */
export function ProfileSection() {
  const profile = trpc.me.profile.useQuery();
  if (profile.isPending) return <LoadingState />;
  if (profile.isError) return <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />;
  return <ProfileForm key={profile.data.id} account={profile.data} />;
}

function ProfileForm({ account }: { account: TAccount }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const { errors, clearErrors, showServerErrors } = useFieldErrors(OWN_PROFILE_FIELDS);
  // the page's own list: the administrators' (server.timeZones) needs accounts:read
  const timeZones = trpc.me.timeZones.useQuery(undefined, { staleTime: Infinity });
  const [form, setForm] = useState({
    first_name: account.first_name,
    middle_name: account.additional.middle_name ?? '',
    last_name: account.last_name,
    nickname: account.additional.nickname ?? '',
    locale: account.additional.locale ?? '',
    time_zone: account.additional.time_zone ?? '',
  });
  const [phones, setPhones] = useState<PhoneRow[]>(account.additional.telephone.map((entry) => phoneRow(entry.value, entry.type)));
  const save = trpc.me.updateProfile.useMutation({
    onSuccess: async () => {
      notify(t('me.profile.saved'), 'success');
      await Promise.all([utils.me.profile.invalidate(), utils.auth.me.invalidate(), utils.me.attendance.invalidate()]);
    },
    onError: showServerErrors,
  });
  const set = (field: keyof typeof form) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    clearErrors(field);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ ...form, telephone: phones.map(({ value, type }) => ({ value, type })) });
  };
  const text = (field: 'first_name' | 'middle_name' | 'last_name' | 'nickname', required = false) => (
    <TextField
      label={t(`me.profile.${field}`)}
      name={field}
      required={required}
      value={form[field]}
      onChange={(event) => set(field)(event.target.value)}
      error={Boolean(errors[field]?.length)}
      helperText={errors[field]?.join(' ')}
      slotProps={{ htmlInput: { maxLength: 255 } }}
    />
  );

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
      <Paper component="section" variant="outlined" aria-labelledby="me-profile-title" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="me-profile-title" variant="h6" component="h2" gutterBottom>
          {t('me.profile.title')}
        </Typography>
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          {text('first_name', true)}
          {text('middle_name')}
          {text('last_name', true)}
          {text('nickname')}
          <TextField select label={t('me.profile.locale')} name="locale" value={form.locale} onChange={(event) => set('locale')(event.target.value)} error={Boolean(errors.locale?.length)} helperText={errors.locale?.join(' ')}>
            <MenuItem value="">{t('me.profile.notSet')}</MenuItem>
            <MenuItem value="en">{t('language.enName')}</MenuItem>
            <MenuItem value="de">{t('language.deName')}</MenuItem>
          </TextField>
          <Autocomplete
            options={timeZones.data ?? []}
            loading={timeZones.isLoading}
            value={form.time_zone || null}
            onChange={(_event, zone) => set('time_zone')(zone ?? '')}
            noOptionsText={t('common.noOptions')}
            loadingText={t('common.loading')}
            renderInput={(params) => <TextField {...params} label={t('me.profile.time_zone')} name="time_zone" error={Boolean(errors.time_zone?.length)} helperText={errors.time_zone?.length ? errors.time_zone.join(' ') : t('me.profile.timeZoneHint')} />}
          />
          <Box sx={{ gridColumn: '1 / -1', display: 'grid', gap: 1.5 }}>
            <Typography variant="subtitle2" component="h3">
              {t('me.profile.telephone')}
            </Typography>
            {phones.map((row, index) => (
              <Box key={row.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                <TextField
                  label={t('me.profile.phoneNumber', { number: index + 1 })}
                  value={row.value}
                  onChange={(event) => {
                    setPhones((rows) => rows.map((candidate) => (candidate.key === row.key ? { ...candidate, value: event.target.value } : candidate)));
                    clearErrors('telephone');
                  }}
                  slotProps={{ htmlInput: { maxLength: 255, inputMode: 'tel' } }}
                  sx={{ flex: 2 }}
                />
                <TextField
                  select
                  label={t('accounts.profile.contactTypeLabel')}
                  value={row.type}
                  onChange={(event) => setPhones((rows) => rows.map((candidate) => (candidate.key === row.key ? { ...candidate, type: event.target.value } : candidate)))}
                  sx={{ flex: 1, minWidth: 110 }}
                >
                  {[...new Set([...PHONE_TYPES, row.type])].map((type) => (
                    <MenuItem key={type} value={type}>
                      {t(`accounts.profile.contactType.${type}`, { defaultValue: type })}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton aria-label={t('me.profile.removePhone', { number: index + 1 })} onClick={() => setPhones((rows) => rows.filter((candidate) => candidate.key !== row.key))} sx={{ mt: 1 }}>
                  <DeleteIcon />
                </IconButton>
              </Box>
            ))}
            {errors.telephone?.length ? (
              <Typography variant="caption" color="error" role="alert">
                {errors.telephone.join(' ')}
              </Typography>
            ) : null}
            <Box>
              <Button startIcon={<AddIcon />} onClick={() => setPhones((rows) => [...rows, phoneRow()])}>
                {t('me.profile.addPhone')}
              </Button>
            </Box>
          </Box>
          <Box sx={{ gridColumn: '1 / -1' }}>
            <Button type="submit" variant="contained" loading={save.isPending}>
              {t('me.profile.save')}
            </Button>
          </Box>
        </Box>
      </Paper>
      <Paper component="section" variant="outlined" aria-labelledby="me-directory-title" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="me-directory-title" variant="h6" component="h2" gutterBottom>
          {t('me.profile.directoryTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('me.profile.directoryIntro')}
        </Typography>
        <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1, '& dt': { typography: 'caption', color: 'text.secondary' }, '& dd': { m: 0, mb: 1, overflowWrap: 'anywhere' } }}>
          <dt>{t('me.profile.username')}</dt>
          <dd>{account.username_readable}</dd>
          <dt>{t('me.profile.email')}</dt>
          <dd>{account.email}</dd>
          <dt>{t('me.profile.status')}</dt>
          <dd>{account.status_title}</dd>
        </Box>
      </Paper>
    </Box>
  );
}
