import { useCallback } from 'react';
import { formatInstant } from '../../lib/zone-label';

/** when a card was scanned, as the console shows instants: DD.MM.YYYY @ HH:mm in the browser's zone, labelled ('UTC+1') */
export function useSeenAt() {
  return useCallback((at: string) => formatInstant(at), []);
}
