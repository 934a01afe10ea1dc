import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TApplication } from '@rollcall/contracts';
import { useReadOnly } from '../../../components/read-only';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../../components/use-field-errors';
import { trpc } from '../../../trpc';
import { ScopesField } from '../ScopesField';
import { SectionCard } from './SectionCard';

const FIELD_NAMES = ['scopes'] as const;

/** The declared scopes after creation (our addition: the spec sets them in the create dialog only), saved as a whole list. */
export function ScopesCard({ application }: { application: TApplication }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const readOnly = useReadOnly();
  const utils = trpc.useUtils();
  const [scopes, setScopes] = useState(application.scopes);
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const save = trpc.applications.setScopes.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { id: application.id, scopes },
      {
        onSuccess: () => {
          notify(t('applications.scopes.updated'), 'success');
          void utils.applications.invalidate();
        },
        onError: showServerErrors,
      },
    );
  };

  if (readOnly) {
    return (
      <SectionCard title={t('applications.scopes.title')}>
        {application.scopes.length ? (
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, '& dd': { m: 0 } }}>
            {application.scopes.map((item) => (
              <Box key={item.scope} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" sx={{ fontFamily: 'monospace' }}>
                  {item.scope}
                </Typography>
                <Typography component="dd" variant="body2">
                  {item.description}
                </Typography>
              </Box>
            ))}
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('applications.scopes.empty')}
          </Typography>
        )}
      </SectionCard>
    );
  }
  return (
    <SectionCard title={t('applications.scopes.title')}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, maxWidth: 720 }}>
        <ScopesField
          legendHidden
          value={scopes}
          onChange={(value) => {
            setScopes(value);
            clearErrors('scopes');
          }}
          errors={errors.scopes}
        />
        <Box>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('applications.scopes.save')}
          </Button>
        </Box>
      </Box>
    </SectionCard>
  );
}
