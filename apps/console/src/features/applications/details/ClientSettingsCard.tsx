import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { APPLICATION_CLIENT_TYPES, APPLICATION_GRANT_TYPES, type TApplication, type TApplicationClientType, type TApplicationGrantType } from '@rollcall/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useReadOnly } from '../../../components/read-only';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useConfirmation } from '../../../components/use-confirmation';
import { formatInstant } from '../../../lib/zone-label';
import { useFieldErrors } from '../../../components/use-field-errors';
import { trpc } from '../../../trpc';
import { ClientSecretDialog } from '../ClientSecretDialog';
import type { ClientSecret } from '../types';
import { SectionCard } from './SectionCard';
import { fieldMessages } from '../../../components/field-messages';

const FIELD_NAMES = ['client_type', 'redirect_uris', 'post_logout_redirect_uris', 'grant_types', 'require_pkce'] as const;
const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/**
 * What a relying party needs and the spec does not show (our addition, docs/adr/0014): client type,
 * redirect and post-logout redirect URIs (one per line, matched exactly), grant types, PKCE; a
 * confidential client's secret is shown once when issued and can be rotated.
 */
export function ClientSettingsCard({ application }: { application: TApplication }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const readOnly = useReadOnly();
  const utils = trpc.useUtils();
  const { client } = application;
  const [clientType, setClientType] = useState<TApplicationClientType>(client.client_type);
  const [redirectUris, setRedirectUris] = useState(client.redirect_uris.join('\n'));
  const [postLogoutUris, setPostLogoutUris] = useState(client.post_logout_redirect_uris.join('\n'));
  const [grantTypes, setGrantTypes] = useState<TApplicationGrantType[]>(client.grant_types);
  const [requirePkce, setRequirePkce] = useState(client.require_pkce);
  const [secret, setSecret] = useState<ClientSecret | null>(null);
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const configure = trpc.applications.configureClient.useMutation();
  const rotate = trpc.applications.rotateSecret.useMutation();
  const confirmation = useConfirmation<TApplication>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    configure.mutate(
      { id: application.id, client_type: clientType, redirect_uris: lines(redirectUris), post_logout_redirect_uris: lines(postLogoutUris), grant_types: grantTypes, require_pkce: requirePkce },
      {
        onSuccess: (answer) => {
          notify(t('applications.client.updated'), 'success');
          setSecret(answer.client_secret);
          void utils.applications.invalidate();
        },
        onError: showServerErrors,
      },
    );
  };
  const confirmRotate = () =>
    rotate.mutate(
      { id: application.id },
      confirmation.outcome(
        (answer) => {
          setSecret(answer.client_secret);
          return t('applications.client.rotated');
        },
        () => void utils.applications.byId.invalidate({ id: application.id }),
      ),
    );

  return (
    <SectionCard
      title={t('applications.client.title')}
      action={
        client.client_type === 'confidential' ? (
          <Button variant="outlined" onClick={() => confirmation.ask(application)}>
            {t('applications.client.rotate')}
          </Button>
        ) : null
      }
    >
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2.5, maxWidth: 720 }}>
        <Typography variant="body2" color="text.secondary">
          {t('applications.client.clientId')}{' '}
          <Box component="span" sx={{ fontFamily: 'monospace', color: 'text.primary' }}>
            {client.client_id}
          </Box>
          {client.secret_issued_at ? ` · ${t('applications.client.secretIssuedAt', { date: formatInstant(client.secret_issued_at) })}` : null}
        </Typography>
        <FormControl disabled={readOnly} error={Boolean(errors.client_type)}>
          <FormLabel id="client-type-label">{t('applications.client.clientType')}</FormLabel>
          <RadioGroup row aria-labelledby="client-type-label" value={clientType} onChange={(event) => {
            const next = event.target.value as TApplicationClientType;
            setClientType(next);
            if (next === 'public') setRequirePkce(true);
            clearErrors('client_type', 'grant_types', 'require_pkce');
          }}>
            {APPLICATION_CLIENT_TYPES.map((type) => (
              <FormControlLabel key={type} value={type} control={<Radio />} label={t(`applications.clientTypes.${type}`)} />
            ))}
          </RadioGroup>
          <FormHelperText>{fieldMessages(errors.client_type) ?? t(`applications.client.typeHint.${clientType}`)}</FormHelperText>
        </FormControl>
        <TextField
          label={t('applications.client.redirectUris')}
          name="redirect_uris"
          multiline
          minRows={2}
          disabled={readOnly}
          value={redirectUris}
          onChange={(event) => {
            setRedirectUris(event.target.value);
            clearErrors('redirect_uris');
          }}
          error={Boolean(errors.redirect_uris)}
          helperText={fieldMessages(errors.redirect_uris) ?? t('applications.client.redirectUrisHint')}
          slotProps={{ htmlInput: { sx: { fontFamily: 'monospace' } } }}
        />
        <TextField
          label={t('applications.client.postLogoutRedirectUris')}
          name="post_logout_redirect_uris"
          multiline
          minRows={1}
          disabled={readOnly}
          value={postLogoutUris}
          onChange={(event) => {
            setPostLogoutUris(event.target.value);
            clearErrors('post_logout_redirect_uris');
          }}
          error={Boolean(errors.post_logout_redirect_uris)}
          helperText={fieldMessages(errors.post_logout_redirect_uris) ?? t('applications.client.postLogoutHint')}
          slotProps={{ htmlInput: { sx: { fontFamily: 'monospace' } } }}
        />
        <FormControl component="fieldset" disabled={readOnly} error={Boolean(errors.grant_types)}>
          <FormLabel component="legend">{t('applications.client.grantTypes')}</FormLabel>
          <FormGroup row>
            {APPLICATION_GRANT_TYPES.map((grant) => (
              <FormControlLabel
                key={grant}
                label={t(`applications.grantTypes.${grant}`)}
                control={
                  <Checkbox
                    checked={grantTypes.includes(grant)}
                    onChange={(event) => {
                      setGrantTypes((current) => (event.target.checked ? [...current, grant] : current.filter((item) => item !== grant)));
                      clearErrors('grant_types', 'redirect_uris');
                    }}
                  />
                }
              />
            ))}
          </FormGroup>
          <FormHelperText>{fieldMessages(errors.grant_types) ?? t('applications.client.grantTypesHint')}</FormHelperText>
        </FormControl>
        <FormControl disabled={readOnly} error={Boolean(errors.require_pkce)}>
          <FormControlLabel
            label={t('applications.client.requirePkce')}
            control={
              <Switch
                checked={requirePkce}
                disabled={readOnly || clientType === 'public'}
                onChange={(event) => {
                  setRequirePkce(event.target.checked);
                  clearErrors('require_pkce');
                }}
              />
            }
          />
          <FormHelperText sx={{ mt: 0 }}>{fieldMessages(errors.require_pkce) ?? t('applications.client.requirePkceHint')}</FormHelperText>
        </FormControl>
        {readOnly ? null : (
          <Box>
            <Button type="submit" variant="contained" loading={configure.isPending}>
              {t('applications.client.save')}
            </Button>
          </Box>
        )}
      </Box>
      <ConfirmDialog
        open={confirmation.open}
        title={t('applications.client.rotateTitle', { title: application.title })}
        message={t('applications.client.rotateMessage')}
        busy={rotate.isPending}
        onConfirm={confirmRotate}
        onCancel={confirmation.cancel}
      />
      <ClientSecretDialog secret={secret} onClose={() => setSecret(null)} />
    </SectionCard>
  );
}
