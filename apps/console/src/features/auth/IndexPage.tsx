import { Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../components/LoadingState';
import { trpc } from '../../trpc';
import { toAccounts } from '../accounts/routes';
import { SignInForm } from './SignInForm';

interface IndexState {
  accessLost?: 401 | 403;
}

/**
 * '/': a signed-in admin goes on to the accounts; anyone else signs in here. After a loss of access
 * (a 401/403 elsewhere) the form is shown with a notice instead of bouncing back to the page that
 * refused access.
 */
export default function IndexPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const accessLost = (location.state as IndexState | null)?.accessLost;
  const me = trpc.auth.me.useQuery(undefined, {
    enabled: !accessLost,
    retry: false,
    refetchOnMount: 'always',
    staleTime: 0,
  });

  if (accessLost) {
    return <SignInForm notice={t(accessLost === 403 ? 'signIn.accessForbidden' : 'signIn.sessionEnded')} />;
  }
  // Decide on a fresh answer only, never on a cached one from before a logout.
  if (me.isFetchedAfterMount && me.isSuccess) return <Navigate to={toAccounts()} replace />;
  if (me.isFetchedAfterMount || me.isError) return <SignInForm />;
  return <LoadingState />;
}
