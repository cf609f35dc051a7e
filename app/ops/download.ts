/**
 * Downloads for the back office. Its exports need the operator's bearer token, which a plain
 * link cannot carry: the file is fetched with it and handed to the browser as a download.
 */
import type { ApiPath } from "../api/client";
import { currentToken } from "../session/account-session";

export function saveFile(contents: Blob, filename: string): void {
  const url = URL.createObjectURL(contents);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** False when there is no session or the origin refused: the page says the download failed. */
export async function downloadAsOperator(path: ApiPath, filename: string): Promise<boolean> {
  const token = currentToken();
  if (!token) return false;
  const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) return false;
  saveFile(await response.blob(), filename);
  return true;
}
