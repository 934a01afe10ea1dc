import { useTranslation } from 'react-i18next';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';

export interface ShownReaderToken {
  readerId: string;
  readerName: string;
  token: string;
}

/**
 * The door agent's settings for this reader, ready for `/etc/rollcall/agent.env` (docs/door-agent.md,
 * step 4): the server is this console's own address, which the agent must reach over https.
 */
export function agentEnvironment(shown: ShownReaderToken, serverUrl: string): string {
  return [
    `ROLLCALL_AGENT_SERVER_URL=${serverUrl}`,
    `ROLLCALL_AGENT_READER_ID=${shown.readerId}`,
    `ROLLCALL_AGENT_TOKEN=${shown.token}`,
    // keyboard-wedge readers are the common kind; docs/door-agent.md lists the others
    'ROLLCALL_AGENT_DRIVER=hid-keyboard',
  ].join('\n');
}

/**
 * A reader's token, shown this once (docs/readers.md: only its SHA-256 is kept), with the reader's id
 * (the agent needs both) and both as the agent's configuration file.
 */
export function ReaderTokenDialog({ shown, onClose }: { shown: ShownReaderToken | null; onClose: () => void }) {
  const { t } = useTranslation();
  const copied = t('readers.token.copied');
  return (
    <ShownOnceDialog
      open={Boolean(shown)}
      title={t('readers.token.title', { name: shown?.readerName ?? '' })}
      warning={t('readers.token.once')}
      fields={[
        { label: t('readers.token.readerId'), value: shown?.readerId ?? '', copy: { label: t('readers.token.copyReaderId'), copied } },
        { label: t('readers.token.label'), value: shown?.token ?? '', copy: { label: t('readers.token.copy'), copied } },
        {
          label: t('readers.token.agentEnv'),
          value: shown ? agentEnvironment(shown, window.location.origin) : '',
          multiline: true,
          hint: t('readers.token.agentEnvHint'),
          copy: { label: t('readers.token.copyAgentEnv'), copied },
        },
      ]}
      doneLabel={t('readers.token.done')}
      onClose={onClose}
    />
  );
}
