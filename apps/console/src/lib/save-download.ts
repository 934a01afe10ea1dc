/** The file name the server gave in Content-Disposition, else `fallback`. */
export const downloadNameOf = (response: Response, fallback: string): string => /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;

/**
 * Hands a blob to the browser as a download named `name`. The link is in the document while it is
 * clicked (Firefox needs that); the object URL is let go a while later, once the download has begun.
 */
export function saveDownload(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
