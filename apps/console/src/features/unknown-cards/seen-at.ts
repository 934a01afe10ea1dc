import { useCallback } from 'react';
import { formatDateTime } from '../../lib/format-date';

/** when a card was scanned, as the console shows instants */
export function useSeenAt() {
  return useCallback((at: string) => formatDateTime(at), []);
}
