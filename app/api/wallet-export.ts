import { withQuery } from "./api-path";
import { type DownloadResult, downloadWithToken } from "./download";

// Apart from the wallet's other calls: the home screen reads those, and need not load the download helper.

/** My statement of some days (YYYY-MM-DD, China Standard Time) saved as a CSV file. */
export function downloadStatement(range: { from: string; to: string }): Promise<DownloadResult> {
  return downloadWithToken(withQuery("/api/wallet/export", range), `paydesk-statement-${range.from}-${range.to}.csv`);
}
