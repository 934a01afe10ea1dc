import { requestHeaders } from '../../trpc';
import { downloadNameOf, saveDownload } from '../../lib/save-download';

export type StatisticsFormat = 'csv' | 'xlsx';

/**
 * Saves the month's statistics as the server wrote them (`GET
 * accounts/statistics/attendance/download`), under the file name it gives. Rejects with the HTTP
 * status on a refused request.
 */
export async function downloadStatistics(query: { date_at?: string; organization_id?: string }, format: StatisticsFormat): Promise<void> {
  const params = new URLSearchParams({ format });
  if (query.date_at) params.set('date_at', query.date_at);
  if (query.organization_id) params.set('organization_id', query.organization_id);
  const response = await fetch(`/api/v2/accounts/statistics/attendance/download?${params}`, { headers: requestHeaders(), credentials: 'include' });
  if (!response.ok) throw new StatisticsDownloadError(response.status);
  saveDownload(await response.blob(), downloadNameOf(response, `attendance-statistics.${format}`));
}

export class StatisticsDownloadError extends Error {
  constructor(readonly status: number) {
    super(`download failed with HTTP ${status}`);
    this.name = 'StatisticsDownloadError';
  }
}
