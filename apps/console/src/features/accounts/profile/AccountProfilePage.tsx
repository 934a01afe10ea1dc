import { useId, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import PersonOffIcon from '@mui/icons-material/PersonOffOutlined';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { PageHeader } from '../../../components/PageHeader';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { fullName } from '../../../lib/account-name';
import { trpc } from '../../../trpc';
import { AccessTokensPanel } from '../../../components/access-tokens/AccessTokensPanel';
import { toAccounts } from '../../../paths';
import { AccountAuthSection } from './AccountAuthSection';
import { AccountOrganizationsTab } from './AccountOrganizationsTab';
import { AccountTeamsTab } from './AccountTeamsTab';
import { AccountCalendarTab } from './calendar/AccountCalendarTab';
import { AccountAttendanceTab } from './attendance/AccountAttendanceTab';
import { AccountSmartCardsTab } from './smart-cards/AccountSmartCardsTab';
import { AccountSsoClaimsTab } from './sso-claims/AccountSsoClaimsTab';
import { EntityHistoryPanel } from '../../../components/history/EntityHistoryPanel';
import { useGrants } from '../../../auth/use-grants';
import { ProfileCard } from './ProfileCard';
import { ProfileForm } from './ProfileForm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /accounts/profile/:id: the profile card and the profile form (spec tabs 1-2), then the tabs
 * 'Account status and Reset password' (7), 'Access tokens' (6) and 'Organizations' (4), and deletion.
 */
export default function AccountProfilePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const valid = UUID.test(id);
  const account = trpc.accounts.byId.useQuery({ id }, { enabled: valid });

  return (
    <>
      <PageHeader title={account.data ? fullName(account.data) || account.data.username_readable : t('accounts.profileTitle')} crumbs={[{ label: t('nav.accounts'), to: toAccounts() }]} actions={
          account.data ? (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <RemoveAccountButton account={account.data} removal="erase" />
              <RemoveAccountButton account={account.data} removal="delete" />
            </Box>
          ) : undefined
        } />
      {!valid ? (
        <Alert severity="info">{t('accounts.profile.noAccount')}</Alert>
      ) : account.isLoading ? (
        <LoadingState />
      ) : account.error || !account.data ? (
        <ErrorState error={account.error} onRetry={() => void account.refetch()} />
      ) : (
        <AccountTabs
          accountId={account.data.id}
          profile={
            <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '320px 1fr' }, alignItems: 'start' }}>
              <ProfileCard account={account.data} />
              {/* keyed by the account: another account's profile starts from its own values */}
              <ProfileForm key={account.data.id} account={account.data} />
            </Box>
          }
        />
      )}
    </>
  );
}

const TABS = ['profile', 'status', 'tokens', 'smartCards', 'organizations', 'teams', 'calendar', 'attendance', 'ssoClaims', 'history'] as const;
type TabName = (typeof TABS)[number];
const isTab = (value: string | null): value is TabName => (TABS as readonly (string | null)[]).includes(value);

/**
 * The account's tabs, at the top as Keycloak's user details has them: the profile (card and form,
 * spec 1-2) first, then the spec's other tabs, so none is hidden under the long profile form. They
 * wrap onto a second line rather than scroll sideways. The open tab is in the URL (?tab=), so a
 * reload or a shared link keeps it.
 */
function AccountTabs({ accountId, profile }: { accountId: string; profile: ReactNode }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  // the Smart cards tab only for who may manage cards somewhere (the server decides per account)
  const grants = useGrants();
  const mayManageCards = grants.may('readers:manage');
  // the history only for who may read the audit trail somewhere (the server decides per account)
  const mayReadHistory = grants.may('audit:read');
  const shown = TABS.filter((name) => (name !== 'smartCards' || mayManageCards) && (name !== 'history' || mayReadHistory));
  const tab: TabName = isTab(requested) && shown.includes(requested) ? requested : 'profile';
  const baseId = useId();
  const select = (_event: unknown, next: TabName) => {
    const nextParams = new URLSearchParams(params);
    if (next === 'profile') nextParams.delete('tab');
    else nextParams.set('tab', next);
    setParams(nextParams, { replace: true });
  };
  const labels: Record<TabName, string> = { profile: t('accounts.tabs.profile'), status: t('accounts.tabs.status'), tokens: t('accounts.tabs.tokens'), organizations: t('accounts.tabs.organizations'), teams: t('teams.accountTab.heading'), calendar: t('calendar.tab'), attendance: t('attendance.tab'), smartCards: t('smartCards.tab'), ssoClaims: t('ssoClaims.tab'), history: t('history.tab') };
  return (
    <Box>
      <Tabs
        value={tab}
        onChange={select}
        aria-label={t('accounts.tabs.label')}
        variant="scrollable"
        allowScrollButtonsMobile
        // from a tablet up every tab shows, on two lines when need be; a phone scrolls them
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3, '& .MuiTabs-flexContainer': { flexWrap: { xs: 'nowrap', md: 'wrap' } }, '& .MuiTabs-indicator': { display: { xs: 'block', md: 'none' } }, '& .MuiTab-root': { whiteSpace: 'nowrap', maxWidth: 'none' }, '& .MuiTab-root.Mui-selected': { borderBottom: { md: 2 }, borderColor: { md: 'primary.main' } } }}
      >
        {shown.map((name) => (
          <Tab key={name} value={name} label={labels[name]} id={`${baseId}-tab-${name}`} aria-controls={`${baseId}-panel-${name}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {tab === 'profile' ? profile : null}
        {tab === 'status' ? <AccountAuthSection key={accountId} accountId={accountId} /> : null}
        {tab === 'tokens' ? <AccessTokensPanel key={accountId} accountId={accountId} heading={t('accessTokens.title')} /> : null}
        {tab === 'organizations' ? <AccountOrganizationsTab key={accountId} accountId={accountId} /> : null}
        {tab === 'teams' ? <AccountTeamsTab key={accountId} accountId={accountId} /> : null}
        {tab === 'calendar' ? <AccountCalendarTab key={accountId} accountId={accountId} /> : null}
        {tab === 'attendance' ? <AccountAttendanceTab key={accountId} accountId={accountId} /> : null}
        {tab === 'smartCards' ? <AccountSmartCardsTab key={accountId} accountId={accountId} /> : null}
        {tab === 'ssoClaims' ? <AccountSsoClaimsTab key={accountId} accountId={accountId} /> : null}
        {tab === 'history' ? <EntityHistoryPanel key={accountId} kind="account" id={accountId} /> : null}
      </Box>
    </Box>
  );
}

/**
 * Delete, or erase the personal data (docs/adr/0015: the account is deleted too, and what it said
 * about the person becomes unreadable everywhere). Both confirm first, then leave for the list.
 */
function RemoveAccountButton({ account, removal }: { account: { id: string; first_name: string; last_name: string; protected: boolean }; removal: 'delete' | 'erase' }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const remove = trpc.accounts.delete.useMutation();
  const erase = trpc.accounts.erasePersonalData.useMutation();
  const mutation = removal === 'erase' ? erase : remove;
  const [confirmOpen, setConfirmOpen] = useState(false);

  const confirm = () =>
    mutation.mutate(
      { id: account.id },
      {
        onSuccess: ({ message }) => {
          setConfirmOpen(false);
          notify(message, 'success');
          void utils.accounts.list.invalidate();
          void navigate(toAccounts());
        },
        onError: (error) => {
          setConfirmOpen(false);
          notify(describeError(error, t), 'error');
        },
      },
    );

  const button = (
    <Button color="error" variant="outlined" startIcon={removal === 'erase' ? <PersonOffIcon /> : <DeleteIcon />} disabled={account.protected} onClick={() => setConfirmOpen(true)}>
      {t(removal === 'erase' ? 'accounts.profile.erase' : 'accounts.profile.delete')}
    </Button>
  );
  return (
    <>
      {account.protected ? (
        <Tooltip title={t('accounts.profile.protected')}>
          <span>{button}</span>
        </Tooltip>
      ) : (
        button
      )}
      <ConfirmDialog
        open={confirmOpen}
        title={t(removal === 'erase' ? 'accounts.profile.eraseTitle' : 'accounts.profile.deleteTitle', { name: fullName(account) })}
        message={t(removal === 'erase' ? 'accounts.profile.eraseMessage' : 'accounts.profile.deleteMessage')}
        busy={mutation.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirmOpen(false)}
      />
    </>
  );
}
