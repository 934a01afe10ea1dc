import { useTranslation } from 'react-i18next';
import { AccessTokensPanel } from '../../components/access-tokens/AccessTokensPanel';

/**
 * One's own access tokens: the access-token feature's own table and dialog on one's own account, so
 * its rules hold (`tokens:read` to list, `tokens:write` to create or revoke, never beyond one's grants).
 */
export function TokensSection({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  return <AccessTokensPanel accountId={accountId} heading={t('me.tokens.title')} />;
}
