import { useTranslation } from 'react-i18next';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';
import type { ClientSecret } from './types';

/** A confidential client's secret, shown once (docs/adr/0014): only its hash is kept. */
export function ClientSecretDialog({ secret, onClose }: { secret: ClientSecret | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceDialog
      open={Boolean(secret)}
      title={t('applications.secret.title')}
      warning={t('applications.secret.once')}
      fields={[
        { label: t('applications.secret.clientId'), value: secret?.client_id ?? '' },
        { label: t('applications.secret.clientSecret'), value: secret?.client_secret ?? '', copy: { label: t('applications.secret.copy'), copied: t('applications.secret.copied') } },
      ]}
      doneLabel={t('applications.secret.done')}
      onClose={onClose}
    />
  );
}
