import type { ReactNode } from 'react';

/**
 * A field's messages under it, each rule once and on its own line: the server may name several
 * rules of one field (a username too short and with a character it may not hold), and the same
 * rule twice (two paths to one field).
 */
export function fieldMessages(messages: readonly string[] | null | undefined): ReactNode | undefined {
  if (!messages?.length) return undefined;
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0];
  return unique.map((message) => (
    <span key={message} style={{ display: 'block' }}>
      {message}
    </span>
  ));
}
