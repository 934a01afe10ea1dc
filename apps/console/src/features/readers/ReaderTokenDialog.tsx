import { useTranslation } from 'react-i18next';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';

export interface ShownReaderToken {
  readerName: string;
  token: string;
}

/** A reader's token, shown this once (docs/readers.md: only its SHA-256 is kept). */
export function ReaderTokenDialog({ shown, onClose }: { shown: ShownReaderToken | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceDialog
      open={Boolean(shown)}
      title={t('readers.token.title', { name: shown?.readerName ?? '' })}
      warning={t('readers.token.once')}
      fields={[{ label: t('readers.token.label'), value: shown?.token ?? '', copy: { label: t('readers.token.copy'), copied: t('readers.token.copied') } }]}
      doneLabel={t('readers.token.done')}
      onClose={onClose}
    />
  );
}
