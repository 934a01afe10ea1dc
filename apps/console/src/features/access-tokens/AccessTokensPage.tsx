import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { AccessTokensPanel } from '../../components/access-tokens/AccessTokensPanel';

/** /access-tokens: every access token of every account, with the same dialog as the account tab. */
export default function AccessTokensPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.accessTokens')} />
      <AccessTokensPanel />
    </>
  );
}
