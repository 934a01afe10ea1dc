import { requestHeaders } from '../../trpc';
import { downloadNameOf, saveDownload } from '../../lib/save-download';

/**
 * Downloads the filtered log from the streamed NDJSON export, reporting the events received so far.
 * The parts are handed to a Blob as they arrive (the browser may keep a large Blob on disk); the
 * file is then saved through a temporary link. Rejects with the HTTP status on a refused request.
 */
export async function downloadEventLog(query: string, onProgress: (events: number) => void, signal?: AbortSignal): Promise<number> {
  const response = await fetch(`/api/v2/audit/events/export${query ? `?${query}` : ''}`, { headers: requestHeaders(), credentials: 'include', signal });
  if (!response.ok || !response.body) throw new ExportError(response.status);
  const parts: Uint8Array[] = [];
  let events = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    for (const byte of value) if (byte === 10) events += 1;
    onProgress(events);
  }
  saveDownload(new Blob(parts as BlobPart[], { type: 'application/x-ndjson' }), downloadNameOf(response, 'event-log.ndjson'));
  return events;
}

export class ExportError extends Error {
  constructor(readonly status: number) {
    super(`export failed with HTTP ${status}`);
    this.name = 'ExportError';
  }
}
