import { Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../components/LoadingState';
import { trpc } from '../../trpc';
import { homeFor } from '../../layouts/nav-items';
import { toEnrolSecondFactor, toMe } from '../../paths';
import { SignInForm } from './SignInForm';

interface IndexState {
  accessLost?: 401 | 403;
}

/**
 * '/': a signed-in administrator goes on to the first screen it may use, an account that administers
 * nothing to its own page (/me); anyone else signs in here. After a loss of access
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

  // a session whose policy requires a second factor it lacks may only enrol one (docs/adr/0025)
  const restrictions = trpc.auth.restrictions.useQuery(undefined, { enabled: me.isSuccess && !accessLost, retry: false, staleTime: 0 });

  if (accessLost) {
    return <SignInForm notice={t(accessLost === 403 ? 'signIn.accessForbidden' : 'signIn.sessionEnded')} />;
  }
  // Decide on a fresh answer only, never on a cached one from before a logout.
  if (me.isFetchedAfterMount && me.isSuccess) {
    if (!restrictions.isSuccess && !restrictions.isError) return <LoadingState />;
    if (restrictions.data?.second_factor_enrolment_required) return <Navigate to={toEnrolSecondFactor()} replace />;
    const home = homeFor(me.data.grants);
    // an account that administers nothing lands on its own page (its attendance, profile, sessions)
    return <Navigate to={home ?? toMe()} replace />;
  }
  if (me.isFetchedAfterMount || me.isError) return <SignInForm />;
  return <LoadingState />;
}
