import { useTranslation } from 'react-i18next';
import { CountedTextField } from '../../components/CountedTextField';

/** A reader's Name and Door, as 'Register a reader' and 'Edit reader' both ask for them. */
export function ReaderNameDoorFields({
  name,
  door,
  onName,
  onDoor,
  errors,
}: {
  name: string;
  door: string;
  onName: (value: string) => void;
  onDoor: (value: string) => void;
  errors: { name?: string[]; door?: string[] };
}) {
  const { t } = useTranslation();
  return (
    <>
      <CountedTextField label={t('readers.dialog.name')} name="name" required autoFocus autoComplete="off" value={name} onValueChange={onName} errors={errors.name} />
      <CountedTextField label={t('readers.dialog.door')} name="door" required autoComplete="off" value={door} onValueChange={onDoor} errors={errors.door} />
    </>
  );
}
