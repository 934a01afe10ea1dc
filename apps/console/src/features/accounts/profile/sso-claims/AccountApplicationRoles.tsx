import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TAccountApplicationRole } from '@rollcall/contracts';
import { describeError } from '../../../../api/api-error';
import { ErrorState } from '../../../../components/ErrorState';
import { SwitchList, type SwitchItem } from '../../../../components/SwitchList';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { trpc } from '../../../../trpc';
import { toApplication } from '../../../../paths';

interface ApplicationRoles {
  id: string;
  title: string;
  roles: TAccountApplicationRole[];
}

/** the rows (already sorted by application title, then role age) as one group per application */
function byApplication(rows: readonly TAccountApplicationRole[]): ApplicationRoles[] {
  const groups = new Map<string, ApplicationRoles>();
  for (const row of rows) {
    const group = groups.get(row.application_id) ?? { id: row.application_id, title: row.application_title, roles: [] };
    group.roles.push(row);
    groups.set(row.application_id, group);
  }
  return [...groups.values()];
}

/**
 * The account's application roles (docs/adr/0014; their slugs are released in the `roles` claim):
 * one switch per role of every application, grouped by application. Applications without roles are
 * not listed (there is nothing to switch).
 */
export function AccountApplicationRoles({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const roles = trpc.applications.rolesOfAccount.useQuery({ account_id: accountId });
  const setRole = trpc.applications.setAccountRole.useMutation();

  const toggle = async (item: SwitchItem, checked: boolean) => {
    try {
      const { message } = await setRole.mutateAsync({ account_id: accountId, role_id: item.id, associated: checked });
      notify(message, 'success');
    } catch (error) {
      notify(describeError(error, t), 'error');
    } finally {
      await utils.applications.rolesOfAccount.invalidate({ account_id: accountId });
    }
  };

  return (
    <Box component="section" aria-labelledby="account-application-roles-heading" sx={{ mt: 4 }}>
      <Typography variant="h6" component="h2" id="account-application-roles-heading">
        {t('ssoClaims.roles.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('ssoClaims.roles.description')}
      </Typography>
      {roles.isLoading ? (
        <LinearProgress aria-label={t('common.loading')} />
      ) : roles.error ? (
        <ErrorState error={roles.error} onRetry={() => void roles.refetch()} />
      ) : !roles.data?.length ? (
        <Typography variant="body2" color="text.secondary">
          {t('ssoClaims.roles.none')}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          {byApplication(roles.data).map((application) => (
            <Paper key={application.id} variant="outlined" sx={{ p: 2 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
                <Link component={RouterLink} to={toApplication(application.id)} underline="hover" color="inherit">
                  {application.title}
                </Link>
              </Typography>
              <SwitchList
                label={t('ssoClaims.roles.ofApplication', { title: application.title })}
                items={application.roles.map((role) => ({ id: role.id, label: role.slug, hint: role.title, checked: role.associated === 1 }))}
                onToggle={toggle}
                emptyText={t('ssoClaims.roles.none')}
              />
            </Paper>
          ))}
        </Box>
      )}
    </Box>
  );
}
