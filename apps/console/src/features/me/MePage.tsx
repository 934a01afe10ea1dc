import { Suspense, useContext, useId, type SyntheticEvent } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../components/LoadingState';
import { PageHeader } from '../../components/PageHeader';
import { useGrants } from '../../auth/use-grants';
import { fullName } from '../../lib/account-name';
import { trpc } from '../../trpc';
import { ApplicationsSection } from './ApplicationsSection';
import { AttendanceSection } from './AttendanceSection';
import { ProfileSection } from './ProfileSection';
import { SecuritySection } from './SecuritySection';
import { SecuritySlot } from './security-slot';
import { SessionsSection } from './SessionsSection';
import { TokensSection } from './TokensSection';

const TABS = ['attendance', 'profile', 'security', 'sessions', 'applications', 'tokens'] as const;
type TabName = (typeof TABS)[number];
const isTab = (value: string | null): value is TabName => (TABS as readonly (string | null)[]).includes(value);

/**
 * /me: a page of one's own, for every signed-in account (the landing page of one that administers
 * nothing; the user menu's 'My account' for administrators). Every call is `me.*`, which acts on the
 * signed-in account only. The open tab is in the URL (?tab=), so a reload or a link keeps it.
 */
export default function MePage() {
  const { t } = useTranslation();
  const baseId = useId();
  const grants = useGrants();
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  const [params, setParams] = useSearchParams();
  // the second factors' panel, as the shell placed it (security-slot.ts)
  const secondFactors = useContext(SecuritySlot);
  // own access tokens only where a permission allows them (the access-token feature's own rule)
  const shown = TABS.filter((name) => name !== 'tokens' || grants.may('tokens:read'));
  const requested = params.get('tab');
  const tab: TabName = isTab(requested) && shown.includes(requested) ? requested : 'attendance';
  const select = (_event: SyntheticEvent, next: TabName) => {
    const nextParams = new URLSearchParams(params);
    if (next === 'attendance') nextParams.delete('tab');
    else nextParams.set('tab', next);
    setParams(nextParams, { replace: true });
  };
  const labels: Record<TabName, string> = {
    attendance: t('me.tabs.attendance'),
    profile: t('me.tabs.profile'),
    security: t('me.tabs.security'),
    sessions: t('me.tabs.sessions'),
    applications: t('me.tabs.applications'),
    tokens: t('me.tabs.tokens'),
  };

  return (
    <>
      <PageHeader title={t('me.title')} />
      {me.data ? (
        <Typography variant="body1" color="text.secondary" sx={{ mt: -2, mb: 2 }}>
          {t('me.signedInAs', { name: fullName(me.data), username: me.data.username_readable })}
        </Typography>
      ) : null}
      <Tabs value={tab} onChange={select} aria-label={t('me.tabs.label')} variant="scrollable" allowScrollButtonsMobile sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        {shown.map((name) => (
          <Tab key={name} value={name} label={labels[name]} id={`${baseId}-tab-${name}`} aria-controls={`${baseId}-panel-${name}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {tab === 'attendance' ? <AttendanceSection /> : null}
        {tab === 'profile' ? <ProfileSection /> : null}
        {tab === 'security' ? (
          <SecuritySection secondFactors={secondFactors ? <Suspense fallback={<LoadingState />}>{secondFactors}</Suspense> : null} />
        ) : null}
        {tab === 'sessions' ? <SessionsSection /> : null}
        {tab === 'applications' ? <ApplicationsSection /> : null}
        {tab === 'tokens' && me.data ? <TokensSection accountId={me.data.id} /> : null}
      </Box>
    </>
  );
}
