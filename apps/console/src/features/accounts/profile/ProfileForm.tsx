import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { TAccount, TUpdateAccountProfileInput } from '@rollcall/contracts';
import { getApiError, splitFieldErrors } from '../../../api/api-error';
import { CountedTextField } from '../../../components/CountedTextField';
import { DateField } from '../../../components/DateField';
import { TimeZoneField } from '../../../components/TimeZoneField';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { trpc } from '../../../trpc';
import { ContactListEditor, contactRow, type ContactKind, type ContactRow } from './ContactListEditor';
import { fieldMessages } from '../../../components/field-messages';
import { translateFieldErrors } from '../../../components/use-field-errors';

/** Fields whose server errors are shown under the field (spec section 5). */
const FIELD_NAMES = ['first_name', 'middle_name', 'nickname', 'birth_date', 'email', 'profile', 'last_name', 'gender', 'time_zone', 'locale', 'website'] as const;
type FieldName = (typeof FIELD_NAMES)[number];
/** the contact lists by their API name ('email' is also the account's own e-mail field) */
type Contacts = Record<ContactKind, ContactRow[]>;
type FormState = Record<FieldName, string> & { contacts: Contacts };
type FieldErrors = Partial<Record<FieldName, string[]>>;
type ContactErrors = Record<ContactKind, Record<string, string[]>>;
const NO_CONTACT_ERRORS: ContactErrors = { telephone: {}, email: {} };

/**
 * The server keys a contact entry's errors by its path: 'additional.telephone.0.value' over REST,
 * with the tRPC input's 'profile.' in front over tRPC; '<index>.<field>' is left for the row.
 */
const CONTACT_ERROR_KEY = /^(?:profile\.)?additional\.(telephone|email)(?:\.(.+))?$/;

function splitContactErrors(error: unknown): { keys: string[]; contacts: ContactErrors } {
  const contacts: ContactErrors = { telephone: {}, email: {} };
  const keys: string[] = [];
  for (const [key, messages] of Object.entries(getApiError(error)?.fields ?? {})) {
    const match = CONTACT_ERROR_KEY.exec(key);
    if (!match || !messages.length) continue;
    keys.push(key);
    const rowKey = match[2] ?? '';
    (contacts[match[1] as ContactKind][rowKey] ??= []).push(...messages);
  }
  return { keys, contacts };
}

function fromAccount(account: TAccount): FormState {
  const a = account.additional;
  return {
    contacts: {
      telephone: a.telephone.map((entry) => contactRow(entry.value, entry.type)),
      email: a.email.map((entry) => contactRow(entry.value, entry.type)),
    },
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

/** Empty text is 'not set'; the contact lists are sent whole, so a removed row is gone. */
function toInput({ contacts, ...fields }: FormState): TUpdateAccountProfileInput {
  const entries = (rows: ContactRow[]) => rows.map(({ value, type }) => ({ value, type }));
  return { ...fields, additional: { telephone: entries(contacts.telephone), email: entries(contacts.email) } };
}

/** Spec tab 1: no client-side checks; the server's errors appear under each field. */
export function ProfileForm({ account }: { account: TAccount }) {
  const { t, i18n } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const update = trpc.accounts.update.useMutation();
  const [form, setForm] = useState<FormState>(() => fromAccount(account));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [contactErrors, setContactErrors] = useState<ContactErrors>(NO_CONTACT_ERRORS);

  const set = (name: FieldName) => (value: string) => {
    setForm((current) => ({ ...current, [name]: value }));
    setErrors((current) => {
      if (!current[name]) return current;
      const next = { ...current };
      delete next[name];
      return next;
    });
  };

  // row errors follow their index, which a change of the list shifts: they go with any change
  const setContacts = (kind: ContactKind) => (rows: ContactRow[]) => {
    setForm((current) => ({ ...current, contacts: { ...current.contacts, [kind]: rows } }));
    setContactErrors((current) => (Object.keys(current[kind]).length ? { ...current, [kind]: {} } : current));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    update.mutate(
      { id: account.id, profile: toInput(form) },
      {
        onSuccess: (saved) => {
          setErrors({});
          setContactErrors(NO_CONTACT_ERRORS);
          setForm(fromAccount(saved));
          notify(t('accounts.profile.saved'), 'success');
          utils.accounts.byId.setData({ id: account.id }, saved);
          void utils.accounts.list.invalidate();
          void utils.auth.me.invalidate();
        },
        onError: (raw) => {
          // the server's messages in the console's language by their rules, as every form's (use-field-errors)
          const error = translateFieldErrors(raw, t, i18n.resolvedLanguage ?? i18n.language);
          const { keys, contacts } = splitContactErrors(error);
          const { fields, notice } = splitFieldErrors<string>(error, [...FIELD_NAMES, ...keys], t);
          setErrors(Object.fromEntries(Object.entries(fields).filter(([name]) => !keys.includes(name))));
          setContactErrors(contacts);
          if (notice) notify(notice, 'error');
        },
      },
    );
  };

  const text = (name: FieldName, label: string, extra: { multiline?: boolean } = {}) => (
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
            <DateField label={t('accounts.profile.birthDate')} name="birth_date" value={form.birth_date} onChange={set('birth_date')} errors={errors.birth_date} disableFuture />
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
              helperText={fieldMessages(errors.gender)}
            >
              <MenuItem value="">{t('accounts.profile.notSet')}</MenuItem>
              <MenuItem value="male">{t('accounts.profile.genderMale')}</MenuItem>
              <MenuItem value="female">{t('accounts.profile.genderFemale')}</MenuItem>
            </TextField>
            <TimeZoneField label={t('accounts.profile.timeZone')} name="time_zone" value={form.time_zone} onValueChange={set('time_zone')} errors={errors.time_zone} />
            <TextField
              select
              label={t('accounts.profile.locale')}
              name="locale"
              value={form.locale}
              onChange={(event) => set('locale')(event.target.value)}
              error={Boolean(errors.locale?.length)}
              helperText={fieldMessages(errors.locale)}
            >
              <MenuItem value="">{t('accounts.profile.notSet')}</MenuItem>
              <MenuItem value="en">{t('accounts.profile.localeEn')}</MenuItem>
              <MenuItem value="de">{t('accounts.profile.localeDe')}</MenuItem>
            </TextField>
            {text('website', t('accounts.profile.website'))}
          </Box>
          {/* full width: a number or an address needs more room than half the form leaves beside its type */}
          <Box sx={{ gridColumn: '1 / -1', display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', xl: '1fr 1fr' }, alignItems: 'start' }}>
            <ContactListEditor kind="telephone" rows={form.contacts.telephone} onChange={setContacts('telephone')} errors={contactErrors.telephone} defaultType="mobile" />
            <ContactListEditor kind="email" rows={form.contacts.email} onChange={setContacts('email')} errors={contactErrors.email} defaultType="work" />
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
