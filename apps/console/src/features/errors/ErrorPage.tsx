import { Component, type ErrorInfo, type ReactNode } from 'react';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { isRouteErrorResponse, Link as RouterLink, useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import i18n from '../../i18n';
import { DefaultLayout } from '../../layouts/DefaultLayout';
import { toIndex } from '../../paths';

interface ErrorViewProps {
  status?: number;
  title?: string;
  message?: string;
}

/** Shows the message, default title 'Error'; a 404 links back to the home page. */
function ErrorView({ status, title, message }: ErrorViewProps) {
  const { t } = useTranslation();
  const notFound = status === 404;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
      <Typography variant="h3" component="h1" gutterBottom>
        {title ?? (status ? String(status) : t('errorPage.title'))}
      </Typography>
      <Typography sx={{ mb: notFound ? 3 : 0 }}>
        {message ?? (notFound ? t('errorPage.notFound') : t('errorPage.unexpected'))}
      </Typography>
      {notFound && (
        <Link component={RouterLink} to={toIndex()}>
          {t('errorPage.backHome')}
        </Link>
      )}
    </Paper>
  );
}

/** The last line of defence: a failure while showing the error page itself. */
class ErrorPageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('error page failed', error, info.componentStack);
  }

  override render() {
    if (this.state.failed) {
      return (
        <main>
          <p>{i18n.t('errorPage.nestedFailure', { defaultValue: 'An error occurred while showing the error page' })}</p>
        </main>
      );
    }
    return this.props.children;
  }
}

function describeRouteError(error: unknown): ErrorViewProps {
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    const text = typeof data === 'string' && data.trim() ? data : undefined;
    return { status: error.status, message: error.status === 404 ? undefined : (text ?? error.statusText) };
  }
  if (error instanceof Error && error.message) return { message: error.message };
  return {};
}

/** errorElement of the routes: a render or loading error of any screen. */
export function RouteErrorPage({ embedded = false }: { embedded?: boolean }) {
  const error = useRouteError();
  console.error(error);
  const view = <ErrorView {...describeRouteError(error)} />;
  return <ErrorPageBoundary>{embedded ? view : <DefaultLayout>{view}</DefaultLayout>}</ErrorPageBoundary>;
}

/** Unknown page: 404 'This page could not be found'. */
export function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  const view = <ErrorView status={404} />;
  return <ErrorPageBoundary>{embedded ? view : <DefaultLayout>{view}</DefaultLayout>}</ErrorPageBoundary>;
}
